import type { QueryClient, QueryPersister } from '@tanstack/react-query'
import { saveSnapshot, snapshotsOf } from './store.js'

/** The crew screens' data kept for offline (My training with its courses' AUs, My documents, My next contract and who is signed in). */
const KEPT = ['me', 'my-registrations', 'documents', 'certificates', 'my-readiness', 'course-structure']

/**
 * Keeps the user's screen data on the device as it arrives, and puts the last copy back in the query cache (with
 * the time it was read), so the screens show it with no link. Each answer is kept before the screen shows it: a
 * page left the moment it showed its data (a reload, a link followed) would otherwise abort the write, and the
 * screen would have no copy offline. Answers the function that stops keeping.
 */
export function keepOfflineCopy(queryClient: QueryClient, userId: string): () => void {
  const persister: QueryPersister = async (queryFn, context, query) => {
    const data = await queryFn(context)
    // A device that cannot store (a full disk, a private window) still shows the answer.
    await saveSnapshot({ userId, key: JSON.stringify(query.queryKey), data, at: Date.now() }).catch(() => undefined)
    return data
  }
  // With a persister TanStack Query would read offline too ('offlineFirst'), fail and show the error: reads still pause.
  for (const key of KEPT) queryClient.setQueryDefaults([key], { persister, networkMode: 'online' })
  void restore(queryClient, userId)
  return () => {
    for (const key of KEPT) queryClient.setQueryDefaults([key], {})
  }
}

/** The last copy back in the cache, where the screens have nothing newer. */
async function restore(queryClient: QueryClient, userId: string): Promise<void> {
  for (const snapshot of await snapshotsOf(userId)) {
    const key = JSON.parse(snapshot.key) as unknown[]
    if (queryClient.getQueryData(key) === undefined) queryClient.setQueryData(key, snapshot.data, { updatedAt: snapshot.at })
  }
}

/** The oldest time among the kept data in the cache: what "as of" means for the screens shown. */
export function asOf(queryClient: QueryClient): number | null {
  const times = queryClient
    .getQueryCache()
    .getAll()
    .filter((query) => KEPT.includes(String(query.queryKey[0])) && query.state.data !== undefined)
    .map((query) => query.state.dataUpdatedAt)
  return times.length ? Math.min(...times) : null
}
