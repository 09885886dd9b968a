import { Alert, Group, Text } from '@mantine/core'
import type { OfflineState } from './useOffline.js'

const time = (at: number) => new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** On every crew screen: the link, what waits for it, when it last synced, and how old the copy shown is. */
export function OfflineStrip({ state }: { state: OfflineState }) {
  const { online, waiting, refused, lastSynced, asOf } = state
  if (online && waiting === 0 && refused === 0) return null
  return (
    <Alert color={online ? 'blue' : 'gray'} mb="md" p="xs" role="status">
      <Group gap="md">
        {!online && (
          <Text size="sm" fw={600}>
            Offline{asOf ? ` — as of ${time(asOf)}` : ''}
          </Text>
        )}
        {waiting > 0 && (
          <Text size="sm">
            {waiting} result{waiting === 1 ? '' : 's'} waiting for a connection
          </Text>
        )}
        {refused > 0 && (
          <Text size="sm" c="red">
            {refused} refused by the service (kept on this device)
          </Text>
        )}
        {lastSynced && (
          <Text size="sm" c="dimmed">
            Last synced {time(lastSynced)}
          </Text>
        )}
      </Group>
    </Alert>
  )
}
