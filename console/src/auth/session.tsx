import { useQueryClient } from '@tanstack/react-query'
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import type { components, SeaworthyClient } from '../../../client/index.js'
import { publicClient, sessionClient, unwrap } from '../api.js'
import { clearSession, type Role, readSession, type StoredSession, writeSession } from './session-store.js'

export type Me = components['schemas']['Me']

interface SessionValue {
  api: SeaworthyClient
  me: Me
  role: Role
  signOut: () => void
}

interface SessionState {
  /** Null while signed out. */
  session: (SessionValue & { stored: StoredSession }) | null
  /** Why the last session ended, shown on the sign-in screen. */
  notice: string | null
  /** Exchanges a token (password or SSO) for a session: reads who the token belongs to. */
  begin: (token: string, expiresInSeconds: number) => Promise<void>
  signInWithPassword: (email: string, password: string) => Promise<void>
  restoring: boolean
}

const SessionContext = createContext<SessionState | null>(null)

const MAX_TIMER_MS = 2 ** 31 - 1

export const EXPIRED_NOTICE = 'Your session has expired. Please sign in again.'

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient()
  const [session, setSession] = useState<SessionState['session']>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [restoring, setRestoring] = useState(true)

  const end = useCallback(
    (why: string | null) => {
      clearSession()
      queryClient.clear()
      setSession(null)
      setNotice(why)
    },
    [queryClient],
  )

  const open = useCallback(
    async (stored: StoredSession) => {
      const api = sessionClient(stored.token, () => end(EXPIRED_NOTICE))
      const me = await unwrap(api.GET('/api/v1/users/me'))
      setNotice(null)
      setSession({ api, me, role: me.user.role, stored, signOut: () => end(null) })
    },
    [end],
  )

  const begin = useCallback((token: string, expiresIn: number) => open(writeSession(token, expiresIn)), [open])

  const signInWithPassword = useCallback(
    async (email: string, password: string) => {
      const token = await unwrap(publicClient.POST('/api/v1/auth/token', { body: { email, password } }))
      await begin(token.access_token, token.expires_in)
    },
    [begin],
  )

  useEffect(() => {
    const stored = readSession()
    if (!stored) return setRestoring(false)
    open(stored)
      .catch(() => end(EXPIRED_NOTICE))
      .finally(() => setRestoring(false))
  }, [open, end])

  // The token's own lifetime: sign out when it runs out, even if the screen makes no request.
  useEffect(() => {
    if (!session) return
    // setTimeout takes at most 2^31 - 1 ms (24.8 days); a longer wait would fire at once.
    const timer = window.setTimeout(() => end(EXPIRED_NOTICE), Math.min(session.stored.expiresAt - Date.now(), MAX_TIMER_MS))
    return () => window.clearTimeout(timer)
  }, [session, end])

  const value = useMemo(
    () => ({ session, notice, begin, signInWithPassword, restoring }),
    [session, notice, begin, signInWithPassword, restoring],
  )
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}

export function useSessionState(): SessionState {
  const state = useContext(SessionContext)
  if (!state) throw new Error('useSessionState outside SessionProvider')
  return state
}

/** The signed-in session; only screens under RequireSession call this. */
export function useSession(): SessionValue {
  const { session } = useSessionState()
  if (!session) throw new Error('useSession without a session')
  return session
}
