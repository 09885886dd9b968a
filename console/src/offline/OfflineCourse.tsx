import { Button, Group, Progress, Stack, Text } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useSession } from '../auth/session.js'
import { errorText } from '../shared/errors.js'
import { TRAINING_PATH } from '../training/launch.js'
import { fetchFiles, removeDownload, takeOffline } from './downloads.js'
import { type Download, deleteDownload, downloadsOf } from './store.js'

const size = (bytes: number) => (bytes < 1_048_576 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1_048_576).toFixed(1)} MB`)

/** Read from the device, link or not (TanStack Query pauses reads while offline unless told). */
export const downloadsQuery = (userId: string) => ({
  queryKey: ['offline-downloads', userId],
  queryFn: () => downloadsOf(userId),
  networkMode: 'always' as const,
})

/**
 * On a course of My training (DECISIONS §16): "Download for offline" per AU with a progress bar, and the
 * downloads on this device with their size: play with no link, continue a cut download, remove.
 */
export function OfflineCourse({
  registrationId,
  title,
  aus,
}: {
  registrationId: string
  title: string
  aus: { index: number; title: string }[]
}) {
  const { api, me } = useSession()
  const userId = me.user.id
  const queryClient = useQueryClient()
  const downloads = useQuery(downloadsQuery(userId))
  const [progress, setProgress] = useState<{ bytes: number; total: number } | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['offline-downloads', userId] })
  const fetchAll = async (download: Download) => {
    setProgress({ bytes: 0, total: download.totalBytes })
    try {
      await fetchFiles(download, setProgress)
    } finally {
      setProgress(null)
      await refresh()
    }
  }
  const take = useMutation({
    mutationFn: async (auIndex: number) => {
      const returnUrl = `${window.location.origin}${TRAINING_PATH}`
      const download = await takeOffline(api, userId, registrationId, auIndex, title, returnUrl)
      await refresh()
      await fetchAll(download)
    },
  })
  const resume = useMutation({ mutationFn: fetchAll })
  const remove = useMutation({
    mutationFn: async (download: Download) => {
      await removeDownload(download)
      await deleteDownload(userId, download.sessionId)
      await refresh()
    },
  })
  // Nothing is offered before the device's list is read: a course already kept is never offered again.
  if (!downloads.isSuccess) return null
  const mine = downloads.data.filter((d) => d.registrationId === registrationId)
  const busy = take.isPending || resume.isPending || remove.isPending
  const label = (auIndex: number) => (aus.length > 1 ? aus.find((a) => a.index === auIndex)?.title : undefined)
  const error = take.error ?? resume.error ?? remove.error
  return (
    <Stack gap={4}>
      {mine.map((d) => (
        <Group key={d.sessionId} gap="xs" wrap="wrap" data-testid="offline-download" data-ready={d.ready} data-ended={d.ended}>
          <Text size="sm">
            {d.ready ? 'On this device' : 'Download not finished'}
            {label(d.auIndex) ? ` (${label(d.auIndex)})` : ''} · {size(d.totalBytes)}
            {d.ended ? ' · played' : ''}
          </Text>
          {d.ready && !d.ended && (
            <Button size="xs" h={36} onClick={() => window.location.assign(d.url)} aria-label={`Play offline: ${title}`}>
              Play offline
            </Button>
          )}
          {!d.ready && navigator.onLine && (
            <Button size="xs" h={36} variant="default" disabled={busy} onClick={() => resume.mutate(d)}>
              Continue download
            </Button>
          )}
          <Button
            size="xs"
            h={36}
            variant="subtle"
            disabled={busy}
            onClick={() => remove.mutate(d)}
            aria-label={`Remove from this device: ${title}`}
          >
            Remove
          </Button>
        </Group>
      ))}
      {navigator.onLine &&
        aus
          .filter((au) => !mine.some((d) => d.auIndex === au.index && !d.ended))
          .map((au) => (
            <Button
              key={au.index}
              size="xs"
              h={36}
              variant="default"
              w="fit-content"
              loading={take.isPending && take.variables === au.index}
              disabled={busy}
              onClick={() => take.mutate(au.index)}
              aria-label={`Download for offline: ${aus.length > 1 ? au.title : title}`}
            >
              Download for offline{aus.length > 1 ? `: ${au.title}` : ''}
            </Button>
          ))}
      {progress && (
        <Stack gap={2}>
          <Progress value={progress.total ? (100 * progress.bytes) / progress.total : 0} aria-label="Download progress" />
          <Text size="xs">
            {size(progress.bytes)} of {size(progress.total)}
          </Text>
        </Stack>
      )}
      {error && (
        <Text size="sm" c="red" role="alert">
          {errorText(error)}
        </Text>
      )}
    </Stack>
  )
}
