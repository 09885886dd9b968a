import createClient, { type Client, type Middleware } from 'openapi-fetch'
import type { paths } from './schema.js'

export type { components, operations, paths } from './schema.js'

export interface SeaworthyClientOptions {
  /** Where the service answers, e.g. `https://seaworthy.example.com` (the document's paths start at `/api/v1`). */
  baseUrl: string
  /** A bearer token from `POST /api/v1/auth/token`; leave out for the public operations. */
  token?: string
  fetch?: typeof globalThis.fetch
}

// JSON answers: the lists' CSV exports (text/csv) are for spreadsheets, fetched as text outside the typed calls.
export type SeaworthyClient = Client<paths, 'application/json'>

/** A typed client of the Seaworthy API: every path, parameter, body and answer is checked by the compiler. */
export function createSeaworthyClient({ baseUrl, token, fetch }: SeaworthyClientOptions): SeaworthyClient {
  const client = createClient<paths, 'application/json'>({ baseUrl, fetch })
  if (token) client.use(bearer(token))
  return client
}

function bearer(token: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${token}`)
      return request
    },
  }
}
