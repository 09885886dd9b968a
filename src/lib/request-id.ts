import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'

/** A client's own id is kept when it is one a log line and an event can carry safely (DECISIONS §12). */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/

export const REQUEST_ID_HEADER = 'x-request-id'

/** Fastify's `genReqId`: the client's `x-request-id` when well-formed, otherwise a new UUID. */
export function requestIdOf(raw: IncomingMessage): string {
  const sent = raw.headers[REQUEST_ID_HEADER]
  return typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID()
}

/** Every response, errors and 404s included, echoes the request's id. */
export function registerRequestId(app: FastifyInstance): void {
  // Callback hooks, here and in the other hooks every request runs: an async one costs a promise and a turn.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id)
    done(null, payload)
  })
}
