import type { Transaction } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB, XapiDocumentKind } from '../../../db/schema.js'

type Executor = Db | Transaction<DB>

/** Which documents a request names: every part of the key but the document id ('' where the kind has none). */
export interface DocumentScope {
  kind: XapiDocumentKind
  activityId: string
  agentKey: string
  registration: string
}

export interface DocumentContent {
  contentType: string
  content: Buffer
  etag: string
  updated: Date
}

const scoped = (db: Executor, orgId: string, scope: DocumentScope) =>
  db
    .selectFrom('xapi_documents')
    .where('organization_id', '=', orgId)
    .where('kind', '=', scope.kind)
    .where('activity_id', '=', scope.activityId)
    .where('agent_key', '=', scope.agentKey)
    .where('registration', '=', scope.registration)

export async function findDocument(db: Executor, orgId: string, scope: DocumentScope, documentId: string) {
  const row = await scoped(db, orgId, scope)
    .select(['content_type', 'content', 'etag', 'updated'])
    .where('document_id', '=', documentId)
    .executeTakeFirst()
  // PGlite reads bytea as a Uint8Array, pg as a Buffer.
  return row && { ...row, content: Buffer.from(row.content) }
}

/** The ids of the scope's documents, optionally only those updated after `since`. */
export async function listDocumentIds(db: Executor, orgId: string, scope: DocumentScope, since: Date | null): Promise<string[]> {
  let query = scoped(db, orgId, scope).select('document_id').orderBy('document_id')
  if (since) query = query.where('updated', '>', since)
  return (await query.execute()).map((row) => row.document_id)
}

export async function saveDocument(
  db: Executor,
  orgId: string,
  scope: DocumentScope,
  documentId: string,
  doc: DocumentContent,
): Promise<void> {
  const columns = { content_type: doc.contentType, content: doc.content, etag: doc.etag, updated: doc.updated }
  await db
    .insertInto('xapi_documents')
    .values({
      organization_id: orgId,
      kind: scope.kind,
      activity_id: scope.activityId,
      agent_key: scope.agentKey,
      registration: scope.registration,
      document_id: documentId,
      ...columns,
    })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'kind', 'activity_id', 'agent_key', 'registration', 'document_id']).doUpdateSet(columns),
    )
    .execute()
}

const deleting = (db: Executor, orgId: string, scope: DocumentScope) =>
  db
    .deleteFrom('xapi_documents')
    .where('organization_id', '=', orgId)
    .where('kind', '=', scope.kind)
    .where('activity_id', '=', scope.activityId)
    .where('agent_key', '=', scope.agentKey)
    .where('registration', '=', scope.registration)

/** Deletes one document, or every document of the scope when `documentId` is null (State's multiple delete). */
export async function deleteDocuments(db: Executor, orgId: string, scope: DocumentScope, documentId: string | null): Promise<void> {
  let query = deleting(db, orgId, scope)
  if (documentId !== null) query = query.where('document_id', '=', documentId)
  await query.execute()
}

/**
 * Deletes one document unless it was updated after `at`, in one statement (no write slips between a read and the
 * delete): `deleted`, `later` (kept: written after `at`) or `none` (no such document).
 */
export async function deleteDocumentUpTo(
  db: Executor,
  orgId: string,
  scope: DocumentScope,
  documentId: string,
  at: Date,
): Promise<'deleted' | 'later' | 'none'> {
  const { deleted, present } = await db
    .with('gone', () =>
      deleting(db, orgId, scope).where('document_id', '=', documentId).where('updated', '<=', at).returning('document_id'),
    )
    // The statement's reads see the rows as they were before its delete: `present` is whether the document existed.
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('gone').select('document_id')).as('deleted'),
      eb.exists(scoped(db, orgId, scope).select('document_id').where('document_id', '=', documentId)).as('present'),
    ])
    .executeTakeFirstOrThrow()
  return deleted ? 'deleted' : present ? 'later' : 'none'
}
