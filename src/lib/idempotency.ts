import { createHash, randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import stringify from 'safe-stable-stringify'
import Type from 'typebox'
import type { Db } from '../db/database.js'
import { AppError, invalid } from './errors.js'
import { claimKey, deleteExpiredKeys, type KeyRecord, releaseKey, storeAnswer } from './idempotency.queries.js'

const HEADER = 'idempotency-key'
const SWEEP_INTERVAL_MS = 60 * 60 * 1000

const KeyHeader = Type.String({
  minLength: 1,
  maxLength: 255,
  description:
    'Makes a retry safe: the first answer (status and body) to this key is kept for 24 hours and replayed, with ' +
    '`Idempotent-Replayed: true`, to a repeat of the same request by the same user; the same key with another ' +
    'request is a 422, and a repeat while the first is still running a 409. 5xx, 408 and 429 answers are not kept.',
})

/** Every authenticated POST of the API; the login (no user yet) and the presigned upload target are public. */
const takesKey = (method: string | string[], url: string | undefined, isPublic: boolean | undefined) =>
  [method].flat().includes('POST') && url?.startsWith('/api/') === true && !isPublic

/** Errors are kept like successes (Stripe's rule), except answers worth retrying: 408, 429 and server errors. */
const keepsAnswer = (status: number) => status < 500 && status !== 429 && status !== 408

/** Method, path (without a trailing slash) and body in canonical JSON: what "the same request" means. */
function fingerprint(request: FastifyRequest): string {
  const [path, query] = request.url.split(/\?(.*)/s)
  const target = `${path.replace(/(.)\/$/, '$1')}${query === undefined ? '' : `?${query}`}`
  return createHash('sha256')
    .update(`${request.method} ${target}\n${stringify(request.body ?? null)}`)
    .digest('base64url')
}

/** The header, declared on each POST's schema: validated with the rest of the request and documented. */
function declareHeader(route: RouteOptions): void {
  route.schema = route.schema ?? {}
  const schema = route.schema as { headers?: { properties?: Record<string, unknown> } }
  const headers = schema.headers ?? Type.Object({})
  schema.headers = { ...headers, properties: { ...headers.properties, [HEADER]: KeyHeader } }
}

function answerOf(record: KeyRecord, fingerprintNow: string) {
  if (record.fingerprint !== fingerprintNow) {
    throw invalid(['header', HEADER], 'This Idempotency-Key was already used with a different request', 'idempotency_key_reused')
  }
  if (record.status_code === null) throw inProgress()
  return { status: record.status_code, contentType: record.content_type, body: record.body }
}

const inProgress = () => new AppError(409, 'A request with this Idempotency-Key is still being processed', { 'retry-after': '1' })

/** A route's own hooks (Fastify runs them after the application's): one or a list, as routes declare them. */
function prepend<T>(hooks: T | T[] | undefined, hook: T): T[] {
  return [hook, ...(hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks])]
}

/**
 * Idempotency keys, as Stripe defines them: the first request with a key claims it (one INSERT … ON
 * CONFLICT), its answer is stored before it is sent, and repeats replay that answer. Register before
 * request validation, which must see the declared header. The hooks are the routes' own, on the routes
 * that take a key: every other request skips them (profiled: docs/performance.md).
 */
export function registerIdempotency(app: FastifyInstance, db: Db): void {
  const held = new WeakMap<FastifyRequest, { key: string; claim: string }>()

  const claimOrReplay = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers[HEADER]
    if (typeof key !== 'string') return
    const { actor } = request
    const claim = randomUUID()
    const print = fingerprint(request)
    const record = await claimKey(db, actor.orgId, actor.userId, key, print, claim)
    if (!record) throw inProgress()
    if (record.claim === claim) {
      held.set(request, { key, claim })
      return
    }
    const answer = answerOf(record, print)
    reply.code(answer.status).header('idempotent-replayed', 'true')
    if (answer.contentType) reply.header('content-type', answer.contentType)
    return reply.send(answer.body ?? undefined)
  }

  const keepAnswer = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const mine = held.get(request)
    if (!mine) return payload
    held.delete(request)
    const { orgId, userId } = request.actor
    const storable = payload === null || payload === undefined || typeof payload === 'string'
    if (storable && keepsAnswer(reply.statusCode)) {
      const contentType = reply.getHeader('content-type')
      const answer = {
        status: reply.statusCode,
        contentType: contentType ? String(contentType) : null,
        body: (payload as string | null) ?? null,
      }
      await storeAnswer(db, orgId, userId, mine, answer)
    } else {
      await releaseKey(db, orgId, userId, mine)
    }
    return payload
  }

  app.addHook('onRoute', (route) => {
    if (!takesKey(route.method, route.url, route.config?.public)) return
    declareHeader(route)
    route.preHandler = prepend(route.preHandler, claimOrReplay)
    // First of the route's onSend hooks: it keeps the answer as serialized, before compression (whose
    // onSend is the route's too) turns it into a stream.
    route.onSend = prepend(route.onSend, keepAnswer)
  })

  let sweeper: NodeJS.Timeout | undefined
  const sweep = () => deleteExpiredKeys(db).catch((error) => app.log.warn({ err: error }, 'expired idempotency keys not deleted'))
  app.addHook('onReady', async () => {
    sweeper = setInterval(sweep, SWEEP_INTERVAL_MS).unref()
  })
  app.addHook('onClose', async () => clearInterval(sweeper))
}
