import { Badge, Button, Group, NumberInput, Select, Stack, TextInput, Title } from '@mantine/core'
import { useInfiniteQuery, useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { unwrap } from '../api.js'
import { GOOD, WARN } from '../shared/colours.js'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { saveBlob } from '../shared/download.js'
import { LoadMore } from '../shared/LoadMore.js'
import { labelOf } from '../shared/labels.js'
import { MutationAlert } from '../shared/MutationAlert.js'
import { PersonLink } from '../shared/PersonLink.js'
import { QueryState } from '../shared/QueryState.js'
import { SHIP_TYPES } from '../shared/record-types.js'

const PATH = '/api/v1/crew/sea-service'

/** The fleet's sea service (DECISIONS §14): most days first, filtered by role, ship type and minimum days. */
export default function SeaServicePage() {
  const { api } = useSession()
  const [role, setRole] = useState('')
  const [shipType, setShipType] = useState<string | null>(null)
  const [minDays, setMinDays] = useState<number | string>('')
  const [asOf, setAsOf] = useState('')
  const filters = {
    role: role.trim() || undefined,
    ship_type: shipType ?? undefined,
    min_days: typeof minDays === 'number' ? minDays : undefined,
    as_of: asOf || undefined,
  }
  // Every matching row as CSV, streamed by the service (not just the pages loaded here).
  const csv = useMutation({
    mutationFn: () => unwrap(api.GET(PATH, { params: { query: { ...filters, format: 'csv' } }, parseAs: 'blob' })),
    onSuccess: (blob) => saveBlob(blob as Blob, `sea-service-${asOf || new Date().toISOString().slice(0, 10)}.csv`),
  })
  const list = useInfiniteQuery({
    queryKey: ['fleet-sea-service', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => unwrap(api.GET(PATH, { params: { query: { limit: 100, cursor: pageParam, ...filters } } })),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  })

  return (
    <Stack>
      <Title order={1} size="h2">
        Sea service
      </Title>
      <Group align="end">
        <TextInput label="Role" placeholder="Any role" value={role} onChange={(e) => setRole(e.currentTarget.value)} />
        <Select
          label="Ship type"
          placeholder="Any type"
          data={SHIP_TYPES.map((t) => ({ value: t, label: labelOf(t) }))}
          value={shipType}
          onChange={setShipType}
          clearable
        />
        <NumberInput label="At least days" min={0} max={36500} value={minDays} onChange={setMinDays} />
        <TextInput label="As of" type="date" value={asOf} onChange={(e) => setAsOf(e.currentTarget.value)} />
        <Button variant="default" onClick={() => csv.mutate()} loading={csv.isPending}>
          Download CSV
        </Button>
      </Group>
      <MutationAlert mutation={csv} saved="Downloaded." />
      <QueryState query={list}>
        {(data) => (
          <DataTable
            caption="Sea service by person"
            rows={data.pages.flatMap((p) => p.items)}
            rowKey={(i) => i.userId}
            columns={[
              { header: 'Person', cell: (i) => <PersonLink userId={i.userId} name={i.userName} /> },
              { header: 'Total days', cell: (i) => i.totalDays },
              { header: 'Days in role', cell: (i) => i.daysInRole ?? '—' },
              { header: 'Last five years', cell: (i) => i.lastFiveYearsDays },
              {
                header: 'Revalidation',
                cell: (i) => (
                  <Badge color={i.eligible ? GOOD : WARN} variant="filled">
                    {i.eligible ? 'Eligible' : 'Not yet'}
                  </Badge>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      <LoadMore query={list} />
    </Stack>
  )
}
