import { Alert, Button, Card, Group, MultiSelect, Stack, Text, Textarea, TextInput } from '@mantine/core'
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { unwrap } from '../api.js'
import { useSession } from '../auth/session.js'
import { DataTable } from '../shared/DataTable.js'
import { errorText } from '../shared/errors.js'
import { LoadMore } from '../shared/LoadMore.js'
import { QueryState } from '../shared/QueryState.js'
import { StatusBadge } from '../shared/StatusBadge.js'
import { when } from './webhooks/DeliveryLog.js'
import { eventPatternGroups } from './webhooks/event-patterns.js'
import { OneTimeSecret } from './webhooks/OneTimeSecret.js'
import { WebhookDetail } from './webhooks/WebhookDetail.js'

/** The organization's webhook subscriptions (admins only, DECISIONS §11): create, manage, test, and the delivery log. */
export function WebhooksTab() {
  const { api } = useSession()
  const queryClient = useQueryClient()
  const [url, setUrl] = useState('')
  const [events, setEvents] = useState<string[]>([])
  const [description, setDescription] = useState('')
  const [secret, setSecret] = useState<string | null>(null)
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const webhooks = useInfiniteQuery({
    queryKey: ['webhooks'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => unwrap(api.GET('/api/v1/shared/webhooks', { params: { query: { limit: 50, cursor: pageParam } } })),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  })
  const create = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/v1/shared/webhooks', { body: { url: url.trim(), events, description: description.trim() || null } })),
    onSuccess: (created) => {
      setSecret(created.secret)
      setSelectedId(created.id)
      setUrl('')
      setEvents([])
      setDescription('')
      queryClient.invalidateQueries({ queryKey: ['webhooks'] })
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSecret(null)
    create.mutate()
  }
  const rows = webhooks.data?.pages.flatMap((p) => p.items) ?? []
  const selected = rows.find((w) => w.id === selectedId)

  return (
    <Stack>
      <Card withBorder component="form" onSubmit={submit} aria-label="New webhook">
        <Text fw={700}>New webhook</Text>
        <Group align="end">
          <TextInput
            label="URL"
            placeholder="https://hooks.example.com/seaworthy"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            required
            miw={320}
          />
          <MultiSelect
            label="Events"
            placeholder={events.length ? undefined : 'Choose events'}
            data={eventPatternGroups()}
            value={events}
            onChange={setEvents}
            searchable
            required
            maxValues={50}
            miw={280}
          />
          <Textarea label="Description" autosize value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Button type="submit" loading={create.isPending} disabled={!url.trim() || events.length === 0}>
            Create webhook
          </Button>
        </Group>
        {create.isError && (
          <Alert color="red" role="alert" mt="xs">
            {errorText(create.error)}
          </Alert>
        )}
      </Card>
      {secret && <OneTimeSecret secret={secret} onDone={() => setSecret(null)} />}
      <QueryState query={webhooks}>
        {() => (
          <DataTable
            caption="Webhooks"
            rows={rows}
            rowKey={(w) => w.id}
            columns={[
              { header: 'URL', cell: (w) => w.url },
              { header: 'Events', cell: (w) => w.events.join(', ') },
              { header: 'Description', cell: (w) => w.description ?? '—' },
              { header: 'State', cell: (w) => <StatusBadge status={w.active ? 'active' : 'inactive'} /> },
              { header: 'Created', cell: (w) => when(w.createdAt) },
              {
                header: 'Action',
                cell: (w) => (
                  <Button
                    size="xs"
                    variant={w.id === selectedId ? 'filled' : 'default'}
                    aria-label={`Manage ${w.url}`}
                    aria-pressed={w.id === selectedId}
                    onClick={() => setSelectedId(w.id)}
                  >
                    Manage
                  </Button>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      <LoadMore query={webhooks} />
      {selected && <WebhookDetail key={selected.id} webhook={selected} onDeleted={() => setSelectedId(null)} />}
    </Stack>
  )
}
