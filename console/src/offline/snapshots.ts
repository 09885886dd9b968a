import type { QueryClient } from '@tanstack/react-query'
import { saveSnapshot, snapshotsOf } from './store.js'

/** The crew screens' data kept for offline (My training with its courses' AUs, My documents, My next contract and who is signed in). */
const KEPT = new Set(['me', 'my-registrations', 'documents', 'certificates', 'my-readiness', 'course-structure'])

/**
 * Keeps the user's screen data on the device as it arrives, and puts the last copy back in the query
 * cache at start (with the time it was read), so the screens show it with no link. Answers the unsubscribe.
 */
export async function keepOfflineCopy(queryClient: QueryClient, userId: string): Promise<() => void> {
  for (const snapshot of await snapshotsOf(userId)) {
    const key = JSON.parse(snapshot.key) as unknown[]
    if (queryClient.getQueryData(key) === undefined) queryClient.setQueryData(key, snapshot.data, { updatedAt: snapshot.at })
  }
  return queryClient.getQueryCache().subscribe((event) => {
    const { query } = event
    if (event.type !== 'updated' || event.action.type !== 'success' || !KEPT.has(String(query.queryKey[0]))) return
    void saveSnapshot({ userId, key: JSON.stringify(query.queryKey), data: query.state.data, at: query.state.dataUpdatedAt })
  })
}

/** The oldest time among the kept data in the cache: what "as of" means for the screens shown. */
export function asOf(queryClient: QueryClient): number | null {
  const times = queryClient
    .getQueryCache()
    .getAll()
    .filter((query) => KEPT.has(String(query.queryKey[0])) && query.state.data !== undefined)
    .map((query) => query.state.dataUpdatedAt)
  return times.length ? Math.min(...times) : null
}
