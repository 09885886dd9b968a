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

export function writeSession(answer: TokenAnswer): StoredSession {
  const lifetimeMs = answer.expires_in * 1000
  const session = { token: answer.access_token, expiresAt: Date.now() + lifetimeMs, lifetimeMs, refreshToken: answer.refresh_token ?? null }
  localStorage.setItem(KEY, JSON.stringify(session))
  return session
}

export function clearSession(): void {
  localStorage.removeItem(KEY)
}

/** Calls `listener` when another tab refreshes (the new session) or signs out (null). */
export function onOtherTabChange(listener: (session: StoredSession | null) => void): () => void {
  const handle = (event: StorageEvent) => {
    if (event.key === KEY || event.key === null) listener(parse(event.newValue))
  }
  window.addEventListener('storage', handle)
  return () => window.removeEventListener('storage', handle)
}
