import type { Middleware } from 'openapi-fetch'
import { createSeaworthyClient, type SeaworthyClient } from '../../client/index.js'

/** One problem of a 422, as the service lists them (DECISIONS §1). */
export interface Issue {
  loc: (string | number)[]
  msg: string
  type: string
}

/** Raised for any answer that is not a success; `detail` is the service's own words, `issues` a 422's list. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly issues: Issue[] = [],
    /** From `Retry-After` (a 429): seconds until asking again can succeed. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(detail)
  }
}

/** "in 2 minutes" from a 429's `Retry-After` (seconds), so a lockout says when to try again. */
function retryAfter(response: Response): string {
  const seconds = Number(response.headers.get('retry-after'))
  if (!Number.isFinite(seconds) || seconds <= 0) return 'Too many attempts. Please wait a moment and try again.'
  const minutes = Math.ceil(seconds / 60)
  const wait = seconds < 60 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`
  return `Too many attempts. Try again in ${wait}.`
}

/** The service answers `{ detail: string }` or a validation error list; either becomes one readable line. */
function describe(body: unknown, response: Response): string {
  if (response.status === 429) return retryAfter(response)
  const detail = (body as { detail?: unknown } | undefined)?.detail
  if (typeof detail === 'string') return detail
  if (Array.isArray(detail)) return detail.map((d: Issue) => `${d.loc.slice(1).join('.')}: ${d.msg}`).join('; ')
  return `The service answered ${response.status}`
}

/** Returns the data of a typed-client call or throws an ApiError with the service's message. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call
  if (error !== undefined || !response.ok) {
    const detail = (error as { detail?: unknown } | undefined)?.detail
    const retryAfterSeconds = Number(response.headers.get('retry-after'))
    const issues = Array.isArray(detail) ? detail : []
    throw new ApiError(response.status, describe(error, response), issues, retryAfterSeconds > 0 ? retryAfterSeconds : null)
  }
  return data as T
}

/**
 * A client for one signed-in session: each request carries the session's current token (`token()`,
 * so a refreshed one is used at once); `onUnauthorized` runs when the service refuses it.
 */
export function sessionClient(token: () => string, onUnauthorized: () => void): SeaworthyClient {
  const client = createSeaworthyClient({ baseUrl: window.location.origin })
  const bearer: Middleware = {
    onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${token()}`)
      return request
    },
    onResponse({ response }) {
      if (response.status === 401) onUnauthorized()
      return response
    },
  }
  client.use(bearer)
  return client
}

/**
 * Plain fetch with the session's bearer token, for the resources the typed client does not describe
 * (the LRS's xAPI resources, whose shapes are xAPI's own); `onUnauthorized` as for `sessionClient`.
 */
export function sessionFetch(token: () => string, onUnauthorized: () => void): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers)
    headers.set('authorization', `Bearer ${token()}`)
    const response = await fetch(input, { ...init, headers })
    if (response.status === 401) onUnauthorized()
    return response
  }
}

/** The client for the sign-in screen, before there is a token. */
export const publicClient = createSeaworthyClient({ baseUrl: window.location.origin })
