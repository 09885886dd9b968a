import { Button, Group, Stack, Title } from '@mantine/core'
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import type { components } from '../../../../client/index.js'
import { unwrap } from '../../api.js'
import { useSession } from '../../auth/session.js'
import { DataTable } from '../../shared/DataTable.js'
import { recordLabel } from '../../shared/labels.js'
import { LoadMore } from '../../shared/LoadMore.js'
import { MutationAlert } from '../../shared/MutationAlert.js'
import { PersonLink } from '../../shared/PersonLink.js'
import { QueryState } from '../../shared/QueryState.js'
import { StatusBadge } from '../../shared/StatusBadge.js'

type Delivery = components['schemas']['WebhookDelivery']

export const when = (iso: string | null) => (iso ? iso.slice(0, 19).replace('T', ' ') : '—')

/**
 * The deliveries of one subscription, newest first, each naming its event, who caused it, and the
 * person (linked to their profile) and record it concerns; refreshed every few seconds while one is pending.
 */
export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const { api } = useSession()
  const queryClient = useQueryClient()
  const deliveries = useInfiniteQuery({
    queryKey: ['webhook-deliveries', webhookId],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/shared/webhooks/{webhook_id}/deliveries', {
          params: { path: { webhook_id: webhookId }, query: { limit: 50, cursor: pageParam } },
        }),
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    refetchInterval: (query) => (query.state.data?.pages.some((p) => p.items.some((d) => d.status === 'pending')) ? 2000 : false),
  })
  const retry = useMutation({
    mutationFn: (delivery: Delivery) =>
      unwrap(
        api.POST('/api/v1/shared/webhooks/{webhook_id}/deliveries/{delivery_id}/retry', {
          params: { path: { webhook_id: webhookId, delivery_id: delivery.id } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', webhookId] }),
  })

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={3} size="h5">
          Delivery log
        </Title>
        <Button size="xs" variant="default" onClick={() => deliveries.refetch()} loading={deliveries.isRefetching}>
          Refresh
        </Button>
      </Group>
      <QueryState query={deliveries}>
        {(data) => (
          <DataTable
            caption="Deliveries"
            rows={data.pages.flatMap((p) => p.items)}
            rowKey={(d) => d.id}
            columns={[
              { header: 'Created', cell: (d) => when(d.createdAt) },
              { header: 'Event', cell: (d) => d.eventType },
              { header: 'By', cell: (d) => d.actorName ?? 'The service' },
              { header: 'Person', cell: (d) => (d.personId ? <PersonLink userId={d.personId} name={d.personName ?? ''} /> : '—') },
              { header: 'Record', cell: (d) => recordLabel(d.target.type, d.targetKind, d.targetName) },
              { header: 'Status', cell: (d) => <StatusBadge status={d.status} /> },
              { header: 'Attempt', cell: (d) => d.attempt },
              { header: 'Response', cell: (d) => d.responseStatus ?? '—' },
              { header: 'Duration', cell: (d) => (d.durationMs === null ? '—' : `${d.durationMs} ms`) },
              { header: 'Next attempt', cell: (d) => when(d.nextAttemptAt) },
              {
                header: 'Action',
                cell: (d) => (
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`Retry the ${d.eventType} delivery of ${when(d.createdAt)}`}
                    loading={retry.isPending && retry.variables?.id === d.id}
                    onClick={() => retry.mutate(d)}
                  >
                    Retry
                  </Button>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      <LoadMore query={deliveries} />
      <MutationAlert mutation={retry} saved="Queued again: it goes out within seconds." />
    </Stack>
  )
}
