import { Button, Group, NumberInput, Select, Stack, TextInput, Title } from '@mantine/core'
import { useInfiniteQuery, useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { saveBlob } from '../shared/download.js'
import { LoadMore } from '../shared/LoadMore.js'
import { labelOf } from '../shared/labels.js'
import { MutationAlert } from '../shared/MutationAlert.js'
import { PersonLink } from '../shared/PersonLink.js'
import { QueryState } from '../shared/QueryState.js'
import { StatusBadge } from '../shared/StatusBadge.js'

type Status = 'expiring_soon' | 'expired'

/** Every document and certificate expired or inside its window, soonest first. */
export default function ExpiringPage() {
  const { api } = useSession()
  const [status, setStatus] = useState<Status | null>(null)
  const [withinDays, setWithinDays] = useState<number | string>('')
  const [asOf, setAsOf] = useState('')
  const filters = {
    status: status ?? undefined,
    within_days: typeof withinDays === 'number' ? withinDays : undefined,
    as_of: asOf || undefined,
  }
  // Every matching row as CSV, streamed by the service (not just the pages loaded here).
  const csv = useMutation({
    mutationFn: () => unwrap(api.GET('/api/v1/crew/expiring', { params: { query: { ...filters, format: 'csv' } }, parseAs: 'blob' })),
    onSuccess: (blob) => saveBlob(blob as Blob, `expiring-${asOf || new Date().toISOString().slice(0, 10)}.csv`),
  })
  const expiring = useInfiniteQuery({
    queryKey: ['expiring', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/crew/expiring', {
          params: {
            query: { limit: 100, cursor: pageParam, ...filters },
          },
        }),
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  })

  return (
    <Stack>
      <Title order={1} size="h2">
        Expiring documents
      </Title>
      <Group align="end">
        <Select
          label="Status"
          placeholder="Expired or expiring"
          data={[
            { value: 'expiring_soon', label: 'Expiring soon' },
            { value: 'expired', label: 'Expired' },
          ]}
          value={status}
          onChange={(v) => setStatus(v as Status | null)}
          clearable
        />
        <NumberInput label="Within days" min={0} max={3650} value={withinDays} onChange={setWithinDays} placeholder="Each type's window" />
        <TextInput label="As of" type="date" value={asOf} onChange={(e) => setAsOf(e.currentTarget.value)} />
        <Button variant="default" onClick={() => csv.mutate()} loading={csv.isPending}>
          Download CSV
        </Button>
      </Group>
      <MutationAlert mutation={csv} saved="Downloaded." />
      <QueryState query={expiring}>
        {(data) => (
          <DataTable
            caption="Expiring documents and certificates"
            rows={data.pages.flatMap((p) => p.items)}
            rowKey={(i) => i.targetId}
            columns={[
              { header: 'Person', cell: (i) => <PersonLink userId={i.userId} name={i.userName} /> },
              { header: 'Document', cell: (i) => labelOf(i.type) },
              { header: 'Expires', cell: (i) => i.expiryDate },
              { header: 'Days left', cell: (i) => i.daysLeft },
              { header: 'Status', cell: (i) => <StatusBadge status={i.status} /> },
              { header: 'Review', cell: (i) => <StatusBadge status={i.verificationStatus} /> },
            ]}
          />
        )}
      </QueryState>
      <LoadMore query={expiring} />
    </Stack>
  )
}
