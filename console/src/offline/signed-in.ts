import type { Me } from '../auth/session.js'
import { snapshotsOf } from './store.js'

/** The user a token names (its `sub`), read without checking it: only to find that user's kept copy. */
const userOf = (token: string): string | null => {
  try {
    const payload = token.split('.')[1] ?? ''
    return (JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: string }).sub ?? null
  } catch {
    return null
  }
}

/**
 * Who is signed in when the service cannot be reached (DECISIONS §16): the last copy of `me` kept for the
 * token's user, so the app opens on board with no link. Null when nothing was kept: sign in once online.
 */
export async function keptMe(token: string): Promise<Me | null> {
  const userId = userOf(token)
  if (!userId) return null
  const kept = (await snapshotsOf(userId)).find((snapshot) => snapshot.key === JSON.stringify(['me']))
  return (kept?.data as Me | undefined) ?? null
}
