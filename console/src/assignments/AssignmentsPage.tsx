import { Checkbox, Group, Select, Stack, Table, TextInput, Title } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { PersonLink } from '../shared/PersonLink.js'
import { useCan } from '../shared/permissions.js'
import { QueryState } from '../shared/QueryState.js'
import { ScrollRegion } from '../shared/ScrollRegion.js'
import { StatusBadge } from '../shared/StatusBadge.js'
import { AssignmentActions } from './AssignmentActions.js'
import { stateOf } from './assignment-columns.js'
import { BulkActions } from './BulkActions.js'
import { CreateAssignment } from './CreateAssignment.js'
import { useShipOptions } from './ship-options.js'

export default function AssignmentsPage() {
  const { api } = useSession()
  const queryClient = useQueryClient()
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search.trim(), 250)
  const [shipId, setShipId] = useState<string | null>(null)
  const [active, setActive] = useState<string | null>('true')
  const [selected, setSelected] = useState<string[]>([])
  const list = useQuery({
    queryKey: ['assignments', { debounced, shipId, active }],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/assignments/', {
          params: {
            query: {
              limit: 200,
              search: debounced || undefined,
              ship_id: shipId ?? undefined,
              is_active: active ? active === 'true' : undefined,
            },
          },
        }),
      ),
  })
  const rows = list.data?.items ?? []
  const known = useMemo(() => new Map(rows.map((a) => [a.id, a])), [rows])
  const toggle = (id: string) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]))
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['assignments'] })
  const shipOptions = useShipOptions()
  const can = useCan()
  const bulk = can('learn:assignments:bulk')
  const single = can('learn:assignments:write')

  return (
    <Stack>
      <Title order={1} size="h2">
        Assignments
      </Title>
      {single && <CreateAssignment onCreated={refresh} />}
      <Group align="end">
        <TextInput label="Search person or ship" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
        <Select label="Ship" placeholder="All ships" data={shipOptions} value={shipId} onChange={setShipId} clearable searchable />
        <Select
          label="State"
          placeholder="Any"
          data={[
            { value: 'true', label: 'Active' },
            { value: 'false', label: 'Inactive' },
          ]}
          value={active}
          onChange={setActive}
          clearable
        />
      </Group>
      {bulk && <BulkActions ids={selected} known={known} onDone={refresh} />}
      <QueryState query={list}>
        {() => (
          <ScrollRegion label="Assignments">
            <Table striped>
              <Table.Caption>{bulk ? 'Assignments; tick the ones a bulk action should change' : 'Assignments'}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  {bulk && (
                    <Table.Th>
                      <Checkbox
                        aria-label="Select all"
                        checked={rows.length > 0 && selected.length === rows.length}
                        onChange={(e) => setSelected(e.currentTarget.checked ? rows.map((a) => a.id) : [])}
                      />
                    </Table.Th>
                  )}
                  <Table.Th>Person</Table.Th>
                  <Table.Th>Ship</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Start</Table.Th>
                  <Table.Th title="The date the assignment's courses must be passed by">Courses due</Table.Th>
                  <Table.Th>End</Table.Th>
                  <Table.Th>State</Table.Th>
                  {single && <Table.Th>Actions</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((a) => (
                  <Table.Tr key={a.id}>
                    {bulk && (
                      <Table.Td>
                        <Checkbox
                          aria-label={`Select ${a.userName} on ${a.shipName}`}
                          checked={selected.includes(a.id)}
                          onChange={() => toggle(a.id)}
                        />
                      </Table.Td>
                    )}
                    <Table.Td>
                      <PersonLink userId={a.userId} name={a.userName} />
                    </Table.Td>
                    <Table.Td>{a.shipName}</Table.Td>
                    <Table.Td>{a.role}</Table.Td>
                    <Table.Td>{a.startDate ?? '—'}</Table.Td>
                    <Table.Td>{a.dueDate ?? '—'}</Table.Td>
                    <Table.Td>{a.endDate ?? '—'}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={stateOf(a)} />
                    </Table.Td>
                    {single && (
                      <Table.Td>
                        <AssignmentActions assignment={a} />
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
        )}
      </QueryState>
    </Stack>
  )
}
