import { Select } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { unwrap } from '../../api.js'
import { useSession } from '../../auth/session.js'

/** A person of the organization, found by name or e-mail from the roster; null is anyone. */
export function PersonFilter({ value, onChange }: { value: string | null; onChange: (userId: string | null) => void }) {
  const { api } = useSession()
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search.trim(), 250)
  const people = useQuery({
    queryKey: ['roster', 'anyone', debounced],
    queryFn: () => unwrap(api.GET('/api/v1/crew/roster', { params: { query: { limit: 20, search: debounced || undefined } } })),
  })
  const options = (people.data?.items ?? []).map((p) => ({ value: p.id, label: `${p.firstName} ${p.lastName} (${p.email})` }))
  return (
    <Select
      label="Person"
      placeholder="Anyone"
      data={options}
      value={value}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: found }) => found}
      clearable
      miw={240}
    />
  )
}
