import type { FastifyReply } from 'fastify'
import type { XapiDocumentKind } from '../../../db/schema.js'
import type { ModuleDeps } from '../../types.js'
import { parseAgentParam } from './agents.js'
import { assertGranted, GRANTS, type XapiPrincipal } from './auth.js'
import { writeDocument } from './documents.js'
import { type DocumentScope, deleteDocuments, findDocument, listDocumentIds } from './documents.queries.js'
import { badRequest, XapiError, xapiNotFound } from './errors.js'
import type { XapiCall, XapiResource } from './http.js'
import type { XapiScope } from './scopes.js'
import { assertSessionDocument } from './session.js'
import { timestampParam, uuidParam } from './statement-params.js'

/** How each document resource names its documents (xAPI 1.0.3 §2.3–2.7). */
interface DocumentKind {
  kind: XapiDocumentKind
  path: string
  /** The query parameters that make up the scope; the document id parameter comes on top. */
  scopeParams: readonly ('activityId' | 'agent' | 'registration')[]
  idParam: 'stateId' | 'profileId'
  /** Profiles refuse a blind overwrite of an existing document (409 without If-Match or If-None-Match). */
  guarded: boolean
  read: readonly XapiScope[]
  write: readonly XapiScope[]
}

function scopeOf(kind: DocumentKind, query: Record<string, string>): DocumentScope {
  const allowed = new Set<string>([...kind.scopeParams, kind.idParam, 'since'])
  const unknown = Object.keys(query).find((name) => !allowed.has(name))
  if (unknown) throw badRequest(`${unknown}: not a parameter of ${kind.path}`)
  for (const name of kind.scopeParams) if (name !== 'registration' && query[name] === undefined) throw badRequest(`${name}: required`)
  return {
    kind: kind.kind,
    activityId: kind.scopeParams.includes('activityId') ? query.activityId : '',
    agentKey: kind.scopeParams.includes('agent') ? parseAgentParam(query.agent).key : '',
    registration: query.registration === undefined ? '' : uuidParam('registration', query.registration),
  }
}

function documentId(kind: DocumentKind, query: Record<string, string>, required: boolean): string | null {
  const id = query[kind.idParam]
  if (id === undefined && required) throw badRequest(`${kind.idParam}: required`)
  if (id !== undefined && query.since !== undefined) throw badRequest(`since: only when listing, without ${kind.idParam}`)
  return id ?? null
}

/**
 * Documents are data, never pages (DECISIONS §13.7): whatever a client stored, the browser downloads
 * it and runs nothing, even when a cross-site form reaches a GET through the alternate request syntax.
 */
const NEVER_A_PAGE = {
  'content-disposition': 'attachment',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
}

async function read(deps: ModuleDeps, kind: DocumentKind, call: XapiCall, reply: FastifyReply) {
  reply.headers(NEVER_A_PAGE)
  assertGranted(call.principal, kind.read)
  const scope = scopeOf(kind, call.query)
  const id = documentId(kind, call.query, false)
  assertSessionDocument(call.principal, scope, { id, write: false })
  if (id === null) {
    const since = timestampParam('since', call.query.since)
    return reply.type('application/json').send(await listDocumentIds(deps.db, call.principal.orgId, scope, since ? new Date(since) : null))
  }
  const doc = await findDocument(deps.db, call.principal.orgId, scope, id)
  if (!doc) throw xapiNotFound('Document')
  if (kind.kind === 'state') await call.principal.session?.stateRead(deps.db, id)
  return reply.type(doc.content_type).header('etag', doc.etag).header('last-modified', doc.updated.toUTCString()).send(doc.content)
}

/** Which document a write names, once the principal may write it: its scopes, the parameters, a session's own rules. */
function writable(kind: DocumentKind, principal: XapiPrincipal, query: Record<string, string>) {
  assertGranted(principal, kind.write)
  const scope = scopeOf(kind, query)
  const id = documentId(kind, query, true) as string
  assertSessionDocument(principal, scope, { id, write: true })
  return { scope, id }
}

async function write(deps: ModuleDeps, kind: DocumentKind, call: XapiCall, reply: FastifyReply, merge: boolean) {
  const { scope, id } = writable(kind, call.principal, call.query)
  if (call.body === undefined) throw badRequest('The document is missing')
  const incoming = { contentType: call.contentType || 'application/octet-stream', content: call.body }
  const preconditions = { ifMatch: call.headers['if-match'], ifNoneMatch: call.headers['if-none-match'], required: kind.guarded && !merge }
  const etag = await deps.db
    .transaction()
    .execute((trx) => writeDocument(trx, call.principal.orgId, scope, id, incoming, { merge, preconditions }))
  return reply.status(204).header('etag', etag).send()
}

async function remove(deps: ModuleDeps, kind: DocumentKind, call: XapiCall, reply: FastifyReply) {
  assertGranted(call.principal, kind.write)
  const scope = scopeOf(kind, call.query)
  if (call.query.since !== undefined) throw badRequest('since: only when listing')
  const id = documentId(kind, call.query, kind.kind !== 'state')
  assertSessionDocument(call.principal, scope, { id, write: true })
  const ifMatch = call.headers['if-match']
  if (ifMatch !== undefined && id !== null) {
    const current = await findDocument(deps.db, call.principal.orgId, scope, id)
    if (!current || !ifMatch.split(',').some((tag) => tag.trim() === '*' || tag.trim() === current.etag)) {
      throw new XapiError(412, 'If-Match does not match the document')
    }
  }
  await deleteDocuments(deps.db, call.principal.orgId, scope, id)
  return reply.status(204).send()
}

const KINDS: DocumentKind[] = [
  {
    kind: 'state',
    path: '/activities/state',
    scopeParams: ['activityId', 'agent', 'registration'],
    idParam: 'stateId',
    guarded: false,
    read: GRANTS.readState,
    write: GRANTS.writeState,
  },
  {
    kind: 'activity_profile',
    path: '/activities/profile',
    scopeParams: ['activityId'],
    idParam: 'profileId',
    guarded: true,
    read: GRANTS.readProfiles,
    write: GRANTS.writeProfiles,
  },
  {
    kind: 'agent_profile',
    path: '/agents/profile',
    scopeParams: ['agent'],
    idParam: 'profileId',
    guarded: true,
    read: GRANTS.readProfiles,
    write: GRANTS.writeProfiles,
  },
]

/**
 * A write of `resource` (`activities/state`, `activities/profile`, `agents/profile`) with its query parameters,
 * checked as a live PUT is: the offline sync's documents (DECISIONS §16) are held to the same rules.
 */
export function writableDocument(principal: XapiPrincipal, resource: string, query: Record<string, string>) {
  const kind = KINDS.find((k) => k.path === `/${resource}`)
  if (!kind) throw badRequest(`${resource}: not a document resource`)
  return writable(kind, principal, query)
}

export const documentResources = (deps: ModuleDeps): XapiResource[] =>
  KINDS.map((kind) => ({
    path: kind.path,
    methods: {
      GET: (call, reply) => read(deps, kind, call, reply),
      PUT: (call, reply) => write(deps, kind, call, reply, false),
      POST: (call, reply) => write(deps, kind, call, reply, true),
      DELETE: (call, reply) => remove(deps, kind, call, reply),
    },
  }))
