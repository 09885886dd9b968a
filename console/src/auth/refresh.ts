import { publicClient } from '../api.js'
import { clearSession, readSharedSession, type StoredSession, writeSession } from './session-store.js'

/** How long before the access token runs out it is refreshed: a quarter of its lifetime, at most a minute. */
export const refreshLead = (session: StoredSession) => Math.min(60_000, session.lifetimeMs / 4)

/** The refresh was refused (the sign-in ended: revoked, expired, suspended): sign in again. */
export class SignInEnded extends Error {}

/**
 * The next token pair for `current`. Tabs take turns (a Web Lock): a refresh token is spent by its
 * first use, and a second use would end the whole sign-in (reuse detection), so a tab that finds the
 * pair already refreshed by another takes that one instead.
 */
export async function refreshSession(current: StoredSession): Promise<StoredSession> {
  const refresh = async () => {
    const latest = await readSharedSession()
    if (!latest?.refreshToken) throw new SignInEnded()
    if (latest.refreshToken !== current.refreshToken) return latest
    const { data, response } = await publicClient.POST('/api/v1/auth/token', {
      body: { grant_type: 'refresh_token', refresh_token: latest.refreshToken },
    })
    if (response.status === 401) {
      clearSession()
      throw new SignInEnded()
    }
    if (!data) throw new Error(`The service answered ${response.status}`)
    return writeSession(data)
  }
  return navigator.locks ? await navigator.locks.request('seaworthy.refresh', refresh) : refresh()
}

/** Ends the sign-in at the service (best effort: the token pair is forgotten here whatever it answers). */
export async function revokeSession(session: StoredSession | null): Promise<void> {
  clearSession()
  if (!session?.refreshToken) return
  await publicClient.POST('/api/v1/auth/logout', { body: { refresh_token: session.refreshToken } }).catch(() => undefined)
}
