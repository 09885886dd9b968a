import { Stack, Title } from '@mantine/core'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { assignmentColumns } from './assignment-columns.js'

/** A crew member's own assignments, as the service lists them with the signed-in user. */
export default function MyAssignmentsPage() {
  const { me } = useSession()
  return (
    <Stack>
      <Title order={1} size="h2">
        My assignments
      </Title>
      <DataTable caption="Assignments" rows={me.assignments} rowKey={(a) => a.id} columns={assignmentColumns} />
    </Stack>
  )
}
