import { del, get, set } from 'idb-keyval'
import type { components } from '../../../client/index.js'

export type Role = components['schemas']['User']['role']
export type TokenAnswer = components['schemas']['TokenResponse']

export interface StoredSession {
  token: string
  /** Epoch milliseconds when the access token stops being accepted. */
  expiresAt: number
  /** The access token's lifetime in milliseconds: when to refresh is a share of it. */
  lifetimeMs: number
  /** Trades for the next token pair (DECISIONS §15); one use only. */
  refreshToken: string | null
}

// Local storage, shared by every tab of this browser: a second tab starts signed in, a refresh made by
// one tab reaches the others, and signing out in one signs out all (the `storage` event below).
const KEY = 'seaworthy.session'

function parse(raw: string | null): StoredSession | null {
  if (!raw) return null
  const session = JSON.parse(raw) as StoredSession
  return session.refreshToken || session.expiresAt > Date.now() ? session : null
}

export function readSession(): StoredSession | null {
  return parse(localStorage.getItem(KEY))
}

/**
 * The token pair as every tab sees it right now. Local storage reaches other tabs' renderers a moment
 * after it is written, so a tab taking its turn to refresh just after another could read the pair the
 * other has spent, and presenting a spent refresh token ends the whole sign-in (reuse detection).
 * IndexedDB is consistent across tabs once a write has committed: the refresh reads and writes it
 * inside its lock; local storage stays for the synchronous read at start and for the `storage` event.
 */
export async function readSharedSession(): Promise<StoredSession | null> {
  const shared = ((await get(KEY).catch(() => undefined)) as StoredSession | undefined) ?? null
  const local = readSession()
  // The newer of the two: a sign-in writes both, and its IndexedDB write may not have committed yet.
  if (!shared) return local
  if (!local) return shared.refreshToken || shared.expiresAt > Date.now() ? shared : null
  return shared.expiresAt >= local.expiresAt ? shared : local
}

export async function writeSession(answer: TokenAnswer): Promise<StoredSession> {
  const lifetimeMs = answer.expires_in * 1000
  const session = { token: answer.access_token, expiresAt: Date.now() + lifetimeMs, lifetimeMs, refreshToken: answer.refresh_token ?? null }
  localStorage.setItem(KEY, JSON.stringify(session))
  await set(KEY, session).catch(() => undefined)
  return session
}

export function clearSession(): void {
  localStorage.removeItem(KEY)
  void del(KEY).catch(() => undefined)
}

/** Calls `listener` when another tab refreshes (the new session) or signs out (null). */
export function onOtherTabChange(listener: (session: StoredSession | null) => void): () => void {
  const handle = (event: StorageEvent) => {
    if (event.key === KEY || event.key === null) listener(parse(event.newValue))
  }
  window.addEventListener('storage', handle)
  return () => window.removeEventListener('storage', handle)
}
