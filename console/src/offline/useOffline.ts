import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import { asOf, keepOfflineCopy } from './snapshots.js'
import { queueOf } from './store.js'
import { syncQueue } from './sync.js'

export interface OfflineState {
  online: boolean
  waiting: number
  refused: number
  lastSynced: number | null
  asOf: number | null
}

/** While a link is there, the queue is sent this often as well as the moment the link returns. */
const SYNC_EVERY_MS = 60_000

/** The signed-in user's offline state: their kept copy, their queue sent with no user action, and what to show. */
export function useOffline(userId: string, fetcher: typeof fetch): OfflineState {
  const queryClient = useQueryClient()
  const [online, setOnline] = useState(navigator.onLine)
  const [counts, setCounts] = useState({ waiting: 0, refused: 0 })
  const [lastSynced, setLastSynced] = useState<number | null>(null)

  const count = useCallback(async () => {
    const queue = await queueOf(userId)
    const refused = queue.filter((item) => item.refused).length
    setCounts({ waiting: queue.length - refused, refused })
  }, [userId])

  const sync = useCallback(async () => {
    if (!navigator.onLine) return
    try {
      await syncQueue(userId, fetcher)
      setLastSynced(Date.now())
    } finally {
      await count()
    }
  }, [userId, fetcher, count])

  useEffect(() => {
    let stop: (() => void) | undefined
    void keepOfflineCopy(queryClient, userId).then((unsubscribe) => {
      stop = unsubscribe
    })
    return () => stop?.()
  }, [queryClient, userId])

  useEffect(() => {
    const up = () => {
      setOnline(true)
      void sync().catch(() => undefined)
    }
    const down = () => setOnline(false)
    window.addEventListener('online', up)
    window.addEventListener('offline', down)
    void sync().catch(() => undefined)
    const timer = window.setInterval(() => void sync().catch(() => undefined), SYNC_EVERY_MS)
    return () => {
      window.removeEventListener('online', up)
      window.removeEventListener('offline', down)
      window.clearInterval(timer)
    }
  }, [sync])

  return { online, ...counts, lastSynced, asOf: online ? null : asOf(queryClient) }
}
