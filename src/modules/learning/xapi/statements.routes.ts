import { randomUUID } from 'node:crypto'
import type { FastifyReply } from 'fastify'
import type { XapiLimits } from '../../../config.js'
import type { ModuleDeps } from '../../types.js'
import { assertGranted, GRANTS, readsOnlyOwn, type XapiPrincipal } from './auth.js'
import { badRequest, XapiError, xapiNotFound } from './errors.js'
import { acceptedLanguages, canonicalOf, idsOf } from './format.js'
import type { XapiCall, XapiResource } from './http.js'
import { parseJson, tooManyStatements } from './json.js'
import { type MoreState, type MoreTokens, moreTokens } from './more.js'
import { type AttachmentContent, chunksOf, readStatementParts, writeStatementParts } from './multipart.js'
import { assertSessionReads, assertSessionStatements } from './session.js'
import { type Presentation, queryParams, singleParams, uuidParam } from './statement-params.js'
import { findAttachments } from './statements.queries.js'
import { findStatement, listStatements, type StatementFilter } from './statements.read.queries.js'
import { storeStatements } from './store.js'

type Json = Record<string, any>
const STATEMENTS_PATH = '/api/v1/learn/xapi/statements'

/** The statements a PUT or POST carries, in JSON or multipart/mixed with their attachments (DECISIONS §13.7's limits). */
async function readBody(call: XapiCall, limits: XapiLimits): Promise<{ statements: unknown; attachments: AttachmentContent[] }> {
  if (call.multipart)
    return {
      statements: parseJson(call.multipart.statements, 'The statements part', limits.maxBatch),
      attachments: call.multipart.attachments,
    }
  if (!call.body?.length) throw badRequest('The request has no statements')
  if (call.mediaType === 'multipart/mixed') {
    // The alternate request syntax's content, already in memory: the same parser and limits.
    const parts = await readStatementParts(chunksOf(call.body), call.contentType, limits)
    return { statements: parseJson(parts.statements, 'The statements part', limits.maxBatch), attachments: parts.attachments }
  }
  if (call.mediaType !== 'application/json') throw badRequest('Content-Type: application/json or multipart/mixed')
  return { statements: parseJson(call.body, 'The body', limits.maxBatch), attachments: [] }
}

/** Stores statements as the caller may (a launch session under its own rules, in one transaction with its state). */
export async function store(deps: ModuleDeps, principal: XapiPrincipal, statements: unknown[], attachments: AttachmentContent[]) {
  assertGranted(principal, GRANTS.writeStatements)
  if (!principal.authority) throw new XapiError(403, 'This caller cannot write statements')
  assertSessionStatements(principal, statements)
  const by = { authority: principal.authority, credentialId: principal.credentialId }
  const { session } = principal
  if (!session) return storeStatements(deps.db, principal.orgId, statements, by, attachments)
  // A session's statements are checked against its state (its own rules refuse any voiding: cmi5 §6.3) in the
  // transaction that stores them.
  return deps.db
    .transaction()
    .execute((trx) => session.store(trx, statements as Json[], () => storeStatements(trx, principal.orgId, statements, by, attachments)))
}

function present(statement: Json, { format }: Presentation, call: XapiCall): Json {
  if (format === 'ids') return idsOf(statement)
  if (format === 'canonical') return canonicalOf(statement, acceptedLanguages(call.headers['accept-language'])) as Json
  return statement
}

/** Sends JSON, or multipart/mixed with the attachments the statements name when asked for. */
async function answer(deps: ModuleDeps, call: XapiCall, reply: FastifyReply, body: unknown, statements: Json[], asked: Presentation) {
  if (!asked.attachments) return reply.type('application/json').send(body)
  const hashes = [...new Set(statements.flatMap((s) => (s.attachments ?? []).map((a: Json) => a.sha2 as string)))]
  const found = await findAttachments(deps.db, call.principal.orgId, hashes)
  const boundary = randomUUID().replaceAll('-', '')
  const parts = found.map((row) => ({ sha2: row.sha2, contentType: row.content_type, content: row.content }))
  return reply.type(`multipart/mixed; boundary=${boundary}`).send(writeStatementParts(body, parts, boundary))
}

async function getStatements(deps: ModuleDeps, more: MoreTokens, call: XapiCall, reply: FastifyReply) {
  const { principal, query } = call
  assertGranted(principal, GRANTS.readStatements)
  const own = readsOnlyOwn(principal) ? (principal.credentialId as string) : undefined
  const consistentThrough = new Date().toISOString()
  reply.header('x-experience-api-consistent-through', consistentThrough)
  if (query.statementId !== undefined || query.voidedStatementId !== undefined) {
    const asked = singleParams(query)
    const row = await findStatement(deps.db, principal.orgId, asked.id, own)
    if (!row) throw xapiNotFound('Statement')
    assertSessionReads(principal, row.statement)
    if (row.voided !== asked.voided) throw xapiNotFound('Statement')
    const statement = present(row.statement, asked, call)
    reply.header('last-modified', new Date(row.stored).toUTCString())
    return answer(deps, call, reply, statement, [statement], asked)
  }
  const asked = query.more !== undefined ? onlyMore(more, principal.orgId, query) : queryParams(query)
  // The first page pins the upper bound on `stored`: statements stored later never shift the pages.
  const filter: StatementFilter = {
    ...asked.filter,
    until: asked.filter.until ?? consistentThrough,
    credentialId: own,
    ...sessionFilter(principal, asked.filter.registration),
  }
  const rows = await listStatements(deps.db, principal.orgId, filter)
  const page = rows.slice(0, filter.limit)
  const last = page.at(-1)
  const next: MoreState | null =
    rows.length > filter.limit && last
      ? { ...asked, filter: { ...asked.filter, until: filter.until, after: { stored: last.stored, seq: last.seq } } }
      : null
  const statements = page.map((row) => present(row.statement, asked, call))
  const link = next ? `${STATEMENTS_PATH}?more=${more.encode(principal.orgId, next)}` : ''
  return answer(deps, call, reply, { statements, more: link }, statements, asked)
}

function onlyMore(more: MoreTokens, orgId: string, query: Record<string, string>) {
  if (Object.keys(query).length > 1) throw badRequest('more: give it alone')
  return more.decode(orgId, query.more)
}

/** No registration has this id: the filter of a session credential asking for another registration than its own. */
const NO_REGISTRATION = '00000000-0000-0000-0000-000000000000'

/** A session credential reads only its registration: asking for another finds nothing. */
function sessionFilter(principal: XapiPrincipal, asked: string | undefined): Partial<StatementFilter> {
  const own = principal.session?.registration
  if (!own) return {}
  return { registration: asked === undefined || asked.toLowerCase() === own ? own : NO_REGISTRATION }
}

export const statementsResource = (deps: ModuleDeps, more = moreTokens(deps.config.jwtSecret)): XapiResource => ({
  path: '/statements',
  methods: {
    GET: (call, reply) => getStatements(deps, more, call, reply),
    PUT: async (call, reply) => {
      const unknown = Object.keys(call.query).find((name) => name !== 'statementId')
      if (unknown) throw badRequest(`${unknown}: PUT statements takes only statementId`)
      if (call.query.statementId === undefined) throw badRequest('statementId: required')
      const id = uuidParam('statementId', call.query.statementId)
      const { statements, attachments } = await readBody(call, deps.config.xapi)
      if (!statements || typeof statements !== 'object' || Array.isArray(statements)) throw badRequest('PUT statements takes one statement')
      const statement = statements as Json
      if (statement.id !== undefined && String(statement.id).toLowerCase() !== id) throw badRequest('statement.id differs from statementId')
      await store(deps, call.principal, [{ ...statement, id }], attachments)
      return reply.status(204).send()
    },
    POST: async (call, reply) => {
      const unknown = Object.keys(call.query)[0]
      if (unknown) throw badRequest(`${unknown}: POST statements takes no parameters`)
      const { statements, attachments } = await readBody(call, deps.config.xapi)
      const batch = Array.isArray(statements) ? statements : [statements]
      if (batch.length === 0) throw badRequest('The batch is empty')
      const { maxBatch } = deps.config.xapi
      if (batch.length > maxBatch) throw tooManyStatements(maxBatch)
      const ids = await store(deps, call.principal, batch, attachments)
      return reply.type('application/json').send(ids)
    },
  },
})
