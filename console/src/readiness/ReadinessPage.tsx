import { Alert, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { LoadMore } from '../shared/LoadMore.js'
import { labelOf } from '../shared/labels.js'
import { PersonLink } from '../shared/PersonLink.js'
import { QueryState } from '../shared/QueryState.js'
import { StatusBadge } from '../shared/StatusBadge.js'
import { IssuesOf } from './IssuesOf.js'
import { ShipSummary } from './ShipSummary.js'

const today = () => new Date().toISOString().slice(0, 10)

/**
 * Who is not ready to sail on a date, and why, fleet-wide or for one ship. An office employee's list holds only
 * the assignments they are part of (§2), and says so: an empty list is never an all-clear (console-11).
 */
export default function ReadinessPage() {
  const { api, role } = useSession()
  const partial = role === 'office_employee'
  const [asOf, setAsOf] = useState(today)
  const [shipId, setShipId] = useState<string | null>(null)
  const [onlyNotReady, setOnlyNotReady] = useState<string | null>('not_ready')
  const ships = useQuery({
    queryKey: ['ships'],
    queryFn: () => unwrap(api.GET('/api/v1/shared/ships', { params: { query: { limit: 200 } } })),
  })
  const fleet = useInfiniteQuery({
    queryKey: ['readiness', asOf, shipId, onlyNotReady],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/learn/readiness', {
          params: {
            query: {
              limit: 50,
              cursor: pageParam,
              as_of: asOf || undefined,
              ship_id: shipId ?? undefined,
              ready: onlyNotReady ? false : undefined,
            },
          },
        }),
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  })

  return (
    <Stack>
      <Title order={1} size="h2">
        Fleet readiness
      </Title>
      <Group align="end">
        <TextInput label="As of" type="date" value={asOf} onChange={(e) => setAsOf(e.currentTarget.value)} />
        <Select
          label="Ship"
          placeholder="All ships"
          data={(ships.data?.items ?? []).map((s) => ({ value: s.id, label: s.name }))}
          value={shipId}
          onChange={setShipId}
          clearable
          searchable
        />
        <Select
          label="Show"
          data={[
            { value: 'not_ready', label: 'Not ready only' },
            { value: '', label: 'Everyone' },
          ]}
          value={onlyNotReady ?? ''}
          onChange={setOnlyNotReady}
          allowDeselect={false}
        />
      </Group>
      {partial && (
        <Alert color="blue" title="You see the assignments you are part of" data-testid="partial-view">
          This list shows only your own assignments, not the fleet. Choose a ship for its summary, which counts every assignment on board;
          an office admin sees everyone.
        </Alert>
      )}
      {shipId && <ShipSummary shipId={shipId} asOf={asOf} />}
      <QueryState query={fleet}>
        {(data) => (
          <DataTable
            caption={partial ? 'Assignments of yours on the date' : 'Assignments on the date'}
            rows={data.pages.flatMap((p) => p.items)}
            rowKey={(a) => a.assignmentId}
            columns={[
              { header: 'Person', cell: (a) => <PersonLink userId={a.userId} name={a.userName} /> },
              { header: 'Ship', cell: (a) => a.shipName },
              { header: 'Role', cell: (a) => a.role },
              { header: 'Ready', cell: (a) => <StatusBadge status={a.ready ? 'ready' : 'not_ready'} /> },
              {
                header: 'Why',
                cell: (a) =>
                  a.codes.length === 0 ? (
                    <Text size="sm">—</Text>
                  ) : (
                    <IssuesOf assignmentId={a.assignmentId} asOf={asOf} summary={a.codes.map(labelOf).join('; ')} />
                  ),
              },
            ]}
          />
        )}
      </QueryState>
      <LoadMore query={fleet} />
    </Stack>
  )
}
