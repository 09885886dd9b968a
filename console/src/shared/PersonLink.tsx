import { Anchor } from '@mantine/core'
import { Link } from 'react-router'

/** A person's name leading to their profile. */
export function PersonLink({ userId, name }: { userId: string; name: string }) {
  return (
    <Anchor component={Link} to={`/crew/${userId}`}>
      {name}
    </Anchor>
  )
}
