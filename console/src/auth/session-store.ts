import type { components } from '../../../client/index.js'

export type Role = components['schemas']['User']['role']

export interface StoredSession {
  token: string
  /** Epoch milliseconds when the token stops being accepted. */
  expiresAt: number
}

// Session storage: the token survives a reload of the tab but not closing it, and no other tab sees it.
const KEY = 'seaworthy.session'

export function readSession(): StoredSession | null {
  const raw = sessionStorage.getItem(KEY)
  if (!raw) return null
  const session = JSON.parse(raw) as StoredSession
  return session.expiresAt > Date.now() ? session : null
}

export function writeSession(token: string, expiresInSeconds: number): StoredSession {
  const session = { token, expiresAt: Date.now() + expiresInSeconds * 1000 }
  sessionStorage.setItem(KEY, JSON.stringify(session))
  return session
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY)
}
