import { onlineManager, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import { type Me, useSession } from '../auth/session.js'
import { sendDocuments } from './documents.js'
import { collect } from './downloads.js'
import { asOf, keepOfflineCopy } from './snapshots.js'
import { documentsOf, queueOf, saveSnapshot } from './store.js'
import { syncQueue } from './sync.js'

export interface OfflineState {
  online: boolean
  waiting: number
  refused: number
  lastSynced: number | null
  asOf: number | null
  /** The user's answers are kept as they arrive: the screens render from then on, so their first read is kept too. */
  keeping: boolean
}

// TanStack Query takes the link as up until an `offline` event says otherwise: a console opened with no link would
// send its reads, fail them and show the error instead of the kept copy. From the start, the browser's word.
onlineManager.setOnline(navigator.onLine)

/** While a link is there, the queue is sent this often as well as the moment the link returns. */
const SYNC_EVERY_MS = 60_000

// One pass at a time per user, over every screen that syncs: on a ship's link a pass outlasts the minute between
// passes (a 2 MB photo takes four minutes at 64 kbit/s), and a second pass beside it would send the same records and
// resume the same upload beside the first (the service lets one request at a time write to an upload).
const passes = new Map<string, Promise<void>>()

/** The signed-in user's offline state: their kept copy, their queue sent with no user action, and what to show. */
export function useOffline(me: Me, fetcher: typeof fetch): OfflineState {
  const userId = me.user.id
  const { api } = useSession()
  const queryClient = useQueryClient()
  const [online, setOnline] = useState(navigator.onLine)
  const [counts, setCounts] = useState({ waiting: 0, refused: 0 })
  const [lastSynced, setLastSynced] = useState<number | null>(null)
  const [keeping, setKeeping] = useState(false)

  const count = useCallback(async () => {
    const queue = [...(await queueOf(userId)), ...(await documentsOf(userId))]
    const refused = queue.filter((item) => item.refused).length
    setCounts({ waiting: queue.length - refused, refused })
  }, [userId])

  const pass = useCallback(async () => {
    try {
      // What the courses played offline recorded joins the queue first, link or not (so the count is true offline).
      await collect(userId).catch(() => undefined)
      if (!navigator.onLine) return
      await syncQueue(userId, fetcher)
      if (await sendDocuments(api, userId))
        for (const key of ['documents', 'certificates', 'my-readiness']) void queryClient.invalidateQueries({ queryKey: [key] })
      setLastSynced(Date.now())
    } finally {
      await count()
    }
  }, [userId, fetcher, count, api, queryClient])

  const sync = useCallback(() => {
    let running = passes.get(userId)
    if (!running) {
      running = pass().finally(() => passes.delete(userId))
      passes.set(userId, running)
    }
    return running
  }, [pass, userId])

  useEffect(() => {
    const stop = keepOfflineCopy(queryClient, userId)
    setKeeping(true)
    // Who is signed in, for opening with no link next time (offline/signed-in.ts); only a copy read online.
    if (navigator.onLine) void saveSnapshot({ userId, key: JSON.stringify(['me']), data: me, at: Date.now() })
    return () => {
      stop()
      setKeeping(false)
    }
  }, [queryClient, userId, me])

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

  return { online, ...counts, lastSynced, asOf: online ? null : asOf(queryClient), keeping }
}
