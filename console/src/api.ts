import type { Middleware } from 'openapi-fetch'
import { createSeaworthyClient, type SeaworthyClient } from '../../client/index.js'

/** Raised for any answer that is not a success; `detail` is the service's own words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    /** From `Retry-After` (a 429): seconds until asking again can succeed. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(detail)
  }
}

/** The service answers `{ detail: string }` or a validation error list; either becomes one readable line. */
function describe(body: unknown, status: number): string {
  const detail = (body as { detail?: unknown } | undefined)?.detail
  if (typeof detail === 'string') return detail
  if (Array.isArray(detail))
    return detail.map((d: { msg?: string; loc?: unknown[] }) => `${d.loc?.slice(1).join('.')}: ${d.msg}`).join('; ')
  return `The service answered ${status}`
}

/** Returns the data of a typed-client call or throws an ApiError with the service's message. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call
  if (error !== undefined || !response.ok) {
    const retryAfter = Number(response.headers.get('retry-after'))
    throw new ApiError(response.status, describe(error, response.status), retryAfter > 0 ? retryAfter : null)
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

/** The client for the sign-in screen, before there is a token. */
export const publicClient = createSeaworthyClient({ baseUrl: window.location.origin })
