import { useQueryClient } from '@tanstack/react-query'
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react'
import type { components, SeaworthyClient } from '../../../client/index.js'
import { publicClient, sessionClient, sessionFetch, unwrap } from '../api.js'
import { keptMe } from '../offline/signed-in.js'
import { refreshLead, refreshSession, revokeSession, SignInEnded } from './refresh.js'
import { onOtherTabChange, type Role, readSession, type StoredSession, type TokenAnswer, writeSession } from './session-store.js'

export type Me = components['schemas']['Me']

interface SessionValue {
  api: SeaworthyClient
  /** Fetch with the session's token, for resources outside the typed client (the xAPI resources). */
  fetch: typeof fetch
  me: Me
  role: Role
  signOut: () => void
}

interface SessionState {
  /** Null while signed out. */
  session: SessionValue | null
  /** Why the last session ended, shown on the sign-in screen. */
  notice: string | null
  /** Starts a session from a token answer (password, invitation, reset, SSO): reads who it belongs to. */
  begin: (answer: TokenAnswer) => Promise<void>
  signInWithPassword: (email: string, password: string) => Promise<void>
  restoring: boolean
}

const SessionContext = createContext<SessionState | null>(null)

const MAX_TIMER_MS = 2 ** 31 - 1
/** After a refresh that failed for want of the network, the next try. */
const RETRY_MS = 5_000

export const EXPIRED_NOTICE = 'Your session has expired. Please sign in again.'

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient()
  const [session, setSession] = useState<SessionValue | null>(null)
  // The token pair in use: requests read it at send time, so a refresh never rebuilds the client.
  const stored = useRef<StoredSession | null>(null)
  // The same pair as state, so the refresh timer is set anew for each.
  const [active, setActive] = useState<StoredSession | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [restoring, setRestoring] = useState(true)

  const adopt = useCallback((next: StoredSession) => {
    stored.current = next
    setActive(next)
  }, [])

  const end = useCallback(
    (why: string | null) => {
      void revokeSession(stored.current)
      stored.current = null
      queryClient.clear()
      setSession(null)
      setNotice(why)
    },
    [queryClient],
  )

  const refresh = useCallback(async () => {
    if (!stored.current) return
    try {
      adopt(await refreshSession(stored.current))
    } catch (error) {
      // Offline, an expired token waits for the link (the queue and the kept copy stay usable meanwhile).
      if (error instanceof SignInEnded || (navigator.onLine && stored.current && stored.current.expiresAt <= Date.now()))
        end(EXPIRED_NOTICE)
      else window.setTimeout(() => void refresh(), RETRY_MS)
    }
  }, [adopt, end])

  const open = useCallback(
    async (next: StoredSession) => {
      adopt(next)
      // A 401 despite the timely refresh (the token was revoked, or the tab slept past its expiry): one refresh decides.
      const token = () => stored.current?.token ?? ''
      const api = sessionClient(token, () => void refresh())
      // With no link (a fetch that cannot reach the service), the copy kept on this device (DECISIONS §16).
      const me = await unwrap(api.GET('/api/v1/users/me')).catch(async (error: unknown) => {
        const kept = error instanceof TypeError ? await keptMe(next.token) : null
        if (!kept) throw error
        return kept
      })
      setNotice(null)
      setSession({ api, fetch: sessionFetch(token, () => void refresh()), me, role: me.user.role, signOut: () => end(null) })
    },
    [adopt, end, refresh],
  )

  const begin = useCallback(async (answer: TokenAnswer) => open(await writeSession(answer)), [open])

  const signInWithPassword = useCallback(
    async (email: string, password: string) => begin(await unwrap(publicClient.POST('/api/v1/auth/token', { body: { email, password } }))),
    [begin],
  )

  // A tab opened while another is signed in starts signed in; one whose token ran out refreshes first.
  useEffect(() => {
    const saved = readSession()
    if (!saved) return setRestoring(false)
    const usable =
      saved.expiresAt - refreshLead(saved) > Date.now()
        ? Promise.resolve(saved)
        : refreshSession(saved).catch((error: unknown) =>
            error instanceof SignInEnded || navigator.onLine ? Promise.reject(error) : saved,
          )
    usable
      .then(open)
      .catch(() => end(EXPIRED_NOTICE))
      .finally(() => setRestoring(false))
  }, [open, end])

  // Other tabs: their refresh is this tab's too; their sign-out ends this tab's session.
  useEffect(
    () =>
      onOtherTabChange((next) => {
        if (next) return adopt(next)
        if (stored.current) {
          stored.current = null
          queryClient.clear()
          setSession(null)
          setNotice(null)
        }
      }),
    [adopt, queryClient],
  )

  // Refresh ahead of the access token's expiry, even if the screen makes no request.
  useEffect(() => {
    const current = active
    if (!session || !current) return
    const wait = current.refreshToken ? current.expiresAt - refreshLead(current) - Date.now() : current.expiresAt - Date.now()
    const due = () => (current.refreshToken ? void refresh() : end(EXPIRED_NOTICE))
    // setTimeout takes at most 2^31 - 1 ms (24.8 days); a longer wait would fire at once.
    const timer = window.setTimeout(due, Math.max(0, Math.min(wait, MAX_TIMER_MS)))
    return () => window.clearTimeout(timer)
  }, [session, active, refresh, end])

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
