import { Alert, Button, Card, Group, MultiSelect, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { components } from '../../../../client/index.js'
import { ApiError, unwrap } from '../../api.js'
import { useSession } from '../../auth/session.js'
import { errorText } from '../../shared/errors.js'
import { MutationAlert } from '../../shared/MutationAlert.js'
import { ConfirmButton } from '../../shared/ConfirmButton.js'
import { DeliveryLog } from './DeliveryLog.js'
import { eventPatternGroups } from './event-patterns.js'
import { OneTimeSecret } from './OneTimeSecret.js'

type Webhook = components['schemas']['Webhook']

/** One subscription (mounted afresh for each, so the form starts from its values): edit it, send a test, rotate its secret, delete it, and its delivery log. */
export function WebhookDetail({ webhook, onDeleted }: { webhook: Webhook; onDeleted: () => void }) {
  const { api } = useSession()
  const queryClient = useQueryClient()
  const path = { params: { path: { webhook_id: webhook.id } } }
  const [url, setUrl] = useState(webhook.url)
  const [events, setEvents] = useState(webhook.events)
  const [description, setDescription] = useState(webhook.description ?? '')
  const [active, setActive] = useState(webhook.active)
  const [secret, setSecret] = useState<string | null>(null)
  const refreshList = () => queryClient.invalidateQueries({ queryKey: ['webhooks'] })

  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/api/v1/shared/webhooks/{webhook_id}', {
          ...path,
          body: { url: url.trim(), events, description: description.trim() || null, active },
        }),
      ),
    onSuccess: refreshList,
  })
  const test = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/shared/webhooks/{webhook_id}/test', path)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', webhook.id] }),
  })
  const rotate = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/shared/webhooks/{webhook_id}/rotate-secret', path)),
    onSuccess: (data) => setSecret(data.secret),
  })
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/shared/webhooks/{webhook_id}', path)),
    onSuccess: () => {
      refreshList()
      onDeleted()
    },
  })

  return (
    <Card withBorder component="section" aria-label={`Webhook ${webhook.url}`}>
      <Stack>
        <Title order={2} size="h4">
          {webhook.url}
        </Title>
        {secret && <OneTimeSecret secret={secret} onDone={() => setSecret(null)} />}
        <TextInput label="URL" value={url} onChange={(e) => setUrl(e.currentTarget.value)} required />
        <MultiSelect label="Events" data={eventPatternGroups()} value={events} onChange={setEvents} searchable required maxValues={50} />
        <Textarea label="Description" autosize value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
        <Switch label="Active (receives deliveries)" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
        <Group>
          <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!url.trim() || events.length === 0}>
            Save webhook
          </Button>
          <Button variant="default" onClick={() => test.mutate()} loading={test.isPending}>
            Send test event
          </Button>
          <ConfirmButton
            label="Rotate secret"
            question="The current secret stops signing at once. Rotate?"
            onConfirm={() => rotate.mutate()}
            loading={rotate.isPending}
          />
          <ConfirmButton
            label="Delete"
            question="Delete this webhook and its delivery log?"
            onConfirm={() => remove.mutate()}
            loading={remove.isPending}
          />
        </Group>
        <MutationAlert mutation={save} saved="Webhook saved." />
        {test.isError && (
          <Alert color="red" role="alert">
            {test.error instanceof ApiError && test.error.status === 409
              ? 'The webhook is not active: turn it on and save before sending a test.'
              : errorText(test.error)}
          </Alert>
        )}
        {test.isSuccess && <Text size="sm">Test event sent (event {test.data.eventId}); its delivery shows below.</Text>}
        {rotate.isError && <MutationAlert mutation={rotate} />}
        {remove.isError && <MutationAlert mutation={remove} />}
        <DeliveryLog webhookId={webhook.id} />
      </Stack>
    </Card>
  )
}
