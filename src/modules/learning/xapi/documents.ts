import { createHash } from 'node:crypto'
import type { Transaction } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB } from '../../../db/schema.js'
import { agentKey, type XapiAgent } from './agents.js'
import { type DocumentContent, type DocumentScope, deleteDocumentUpTo, findDocument, saveDocument } from './documents.queries.js'
import { badRequest, XapiError } from './errors.js'
import { isTooDeep, MAX_JSON_DEPTH } from './json.js'

type Executor = Db | Transaction<DB>

/** xAPI's ETag: the SHA-1 of the document's bytes, quoted; computed once when the document is written. */
export const etagOf = (content: Buffer) => `"${createHash('sha1').update(content).digest('hex')}"`

const isJsonType = (contentType: string) => contentType.split(';')[0].trim().toLowerCase() === 'application/json'

/** A JSON object, or null for anything else (JSON nested too deep included: it is not merged). */
function jsonObject(content: Buffer): Record<string, unknown> | null {
  if (isTooDeep(content)) return null
  try {
    const value = JSON.parse(content.toString('utf8'))
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null
  } catch {
    return null
  }
}

/** The preconditions of a write (xAPI 1.0.3 §2.3 Concurrency). `required`: profiles refuse a blind overwrite. */
export interface Preconditions {
  ifMatch?: string
  ifNoneMatch?: string
  required: boolean
}

function assertPreconditions(current: { etag: string } | undefined, { ifMatch, ifNoneMatch, required }: Preconditions): void {
  if (ifMatch !== undefined) {
    const tags = ifMatch.split(',').map((tag) => tag.trim())
    if (!current || !(tags.includes('*') || tags.includes(current.etag))) throw new XapiError(412, 'If-Match does not match the document')
  }
  if (ifNoneMatch !== undefined) {
    const tags = ifNoneMatch.split(',').map((tag) => tag.trim())
    if (current && (tags.includes('*') || tags.includes(current.etag))) throw new XapiError(412, 'If-None-Match: the document exists')
  }
  if (required && ifMatch === undefined && ifNoneMatch === undefined) {
    if (current) throw new XapiError(409, 'The document exists: send If-Match with its ETag to change it')
    throw badRequest('Send If-None-Match: * to create the document (or If-Match with the ETag of the one it replaces)')
  }
}

/**
 * Writes one document. `merge` (POST) merges JSON objects into the stored one (top-level properties,
 * xAPI 1.0.3 §2.3.1); both must be JSON objects. Returns the new ETag.
 */
export async function writeDocument(
  db: Executor,
  orgId: string,
  scope: DocumentScope,
  documentId: string,
  incoming: { contentType: string; content: Buffer },
  options: { merge: boolean; preconditions: Preconditions },
): Promise<string> {
  let { contentType, content } = incoming
  // Checked before any read: JSON nested past the limit is never stored, so never merged into either.
  if (isJsonType(contentType) && isTooDeep(content)) throw badRequest(`The document nests objects and arrays deeper than ${MAX_JSON_DEPTH}`)
  const current = await findDocument(db, orgId, scope, documentId)
  assertPreconditions(current, options.preconditions)
  if (options.merge) {
    const given = isJsonType(contentType) ? jsonObject(content) : null
    if (!given) throw badRequest('POST merges JSON objects: the body must be an application/json object')
    if (current) {
      const stored = isJsonType(current.content_type) ? jsonObject(current.content) : null
      if (!stored) throw badRequest('The stored document is not a JSON object: it cannot be merged, only replaced with PUT')
      content = Buffer.from(JSON.stringify({ ...stored, ...given }))
      contentType = 'application/json'
    }
  }
  const doc: DocumentContent = { contentType, content, etag: etagOf(content), updated: new Date() }
  await saveDocument(db, orgId, scope, documentId, doc)
  return doc.etag
}

/** Margin for a device's clock ahead of the service's: a document written later than this is refused, never kept as newer. */
const CLOCK_SKEW_MS = 5 * 60_000

/** A time the device gives for its change: more than the allowed skew ahead of the service's clock, the device's is wrong. */
function checkDeviceClock(at: Date, change: 'written' | 'deleted') {
  if (at.getTime() > Date.now() + CLOCK_SKEW_MS) throw badRequest(`The document was ${change} later than now: the device’s clock is wrong`)
}

/**
 * A document written on a device with no link, sent afterwards (DECISIONS §16, launch-17 in decisions/launch.md): it
 * replaces the stored one only when written later than the stored one's `updated`, and is stored with the time
 * it was written as its `updated`, so the same document sent again is recognised and changes nothing.
 * `older`: a later version is stored (the device keeps its own, refused).
 */
export async function writeDocumentAsOf(
  db: Executor,
  orgId: string,
  scope: DocumentScope,
  documentId: string,
  incoming: { contentType: string; content: Buffer },
  writtenAt: Date,
): Promise<'stored' | 'unchanged' | 'older'> {
  const { contentType, content } = incoming
  if (isJsonType(contentType) && isTooDeep(content)) throw badRequest(`The document nests objects and arrays deeper than ${MAX_JSON_DEPTH}`)
  checkDeviceClock(writtenAt, 'written')
  const current = await findDocument(db, orgId, scope, documentId)
  const etag = etagOf(content)
  if (current && current.updated.getTime() === writtenAt.getTime() && current.etag === etag) return 'unchanged'
  if (current && current.updated >= writtenAt) return 'older'
  await saveDocument(db, orgId, scope, documentId, { contentType, content, etag, updated: writtenAt })
  return 'stored'
}

/**
 * A document deleted on a device with no link, sent afterwards (launch-17): the stored one goes unless it was written
 * later than the deletion. `older`: it was (the device's deletion is refused); `unchanged`: none was stored.
 */
export async function deleteDocumentAsOf(
  db: Executor,
  orgId: string,
  scope: DocumentScope,
  documentId: string,
  deletedAt: Date,
): Promise<'stored' | 'unchanged' | 'older'> {
  checkDeviceClock(deletedAt, 'deleted')
  const outcome = await deleteDocumentUpTo(db, orgId, scope, documentId, deletedAt)
  return outcome === 'deleted' ? 'stored' : outcome === 'later' ? 'older' : 'unchanged'
}

/** What another module writes into the State resource, e.g. cmi5's LMS.LaunchData before a launch. */
export interface StateDocument {
  activityId: string
  agent: XapiAgent
  registration?: string | null
  stateId: string
  /** A JSON value (stored as application/json) or bytes with their media type. */
  content: unknown
  contentType?: string
}

/** Writes (replaces) one State document inside the caller's transaction; returns its ETag. */
export function writeStateDocument(trx: Executor, orgId: string, state: StateDocument): Promise<string> {
  const key = agentKey(state.agent)
  if (!key) throw badRequest('agent: needs an identifier')
  const scope: DocumentScope = {
    kind: 'state',
    activityId: state.activityId,
    agentKey: key,
    registration: state.registration?.toLowerCase() ?? '',
  }
  const content = Buffer.isBuffer(state.content) ? state.content : Buffer.from(JSON.stringify(state.content))
  const contentType = state.contentType ?? 'application/json'
  return writeDocument(trx, orgId, scope, state.stateId, { contentType, content }, { merge: false, preconditions: { required: false } })
}
