import { Group, Select, Stack, TextInput, Title } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { components } from '../../../client/index.js'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { NewPersonButton } from '../people/NewPersonButton.js'
import { useCan } from '../shared/permissions.js'
import { DataTable } from '../shared/DataTable.js'
import { LoadMore } from '../shared/LoadMore.js'
import { labelOf } from '../shared/labels.js'
import { PersonLink } from '../shared/PersonLink.js'
import { QueryState } from '../shared/QueryState.js'
import { StatusBadge } from '../shared/StatusBadge.js'

type RosterUser = components['schemas']['RosterUser']
type VerificationState = RosterUser['verificationState']
type Role = RosterUser['role']

const STATES: VerificationState[] = ['approved', 'in_review', 'action_needed', 'incomplete']
const ROLES: Role[] = ['crew', 'office_employee', 'office_admin', 'admin']
const options = (values: string[]) => values.map((value) => ({ value, label: labelOf(value) }))

export default function RosterPage() {
  const { api } = useSession()
  const can = useCan()
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search.trim(), 250)
  const [state, setState] = useState<VerificationState | null>(null)
  const [role, setRole] = useState<Role | null>(null)
  const roster = useInfiniteQuery({
    queryKey: ['roster', debounced, state, role],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/crew/roster', {
          params: {
            query: {
              limit: 50,
              cursor: pageParam,
              search: debounced || undefined,
              verification_state: state ?? undefined,
              role: role ?? undefined,
            },
          },
        }),
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  })

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          Crew
        </Title>
        {can('users:write') && <NewPersonButton />}
      </Group>
      <Group align="end">
        <TextInput label="Search name or e-mail" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
        <Select
          label="Verification"
          placeholder="Any"
          data={options(STATES)}
          value={state}
          onChange={(v) => setState(v as VerificationState | null)}
          clearable
        />
        <Select label="Role" placeholder="Any" data={options(ROLES)} value={role} onChange={(v) => setRole(v as Role | null)} clearable />
      </Group>
      <QueryState query={roster}>
        {(data) => (
          <DataTable
            caption="People"
            rows={data.pages.flatMap((p) => p.items)}
            rowKey={(u) => u.id}
            columns={[
              { header: 'Name', cell: (u) => <PersonLink userId={u.id} name={`${u.firstName} ${u.lastName}`} /> },
              { header: 'E-mail', cell: (u) => u.email },
              { header: 'Role', cell: (u) => labelOf(u.role) },
              { header: 'Account', cell: (u) => labelOf(u.state) },
              { header: 'Verification', cell: (u) => <StatusBadge status={u.verificationState} /> },
            ]}
          />
        )}
      </QueryState>
      <LoadMore query={roster} />
    </Stack>
  )
}
