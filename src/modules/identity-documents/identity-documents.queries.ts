import { type Insertable, type Selectable, sql } from 'kysely'
import type { Db } from '../../db/database.js'
import type { IdentityDocumentsTable } from '../../db/schema.js'
import type { Actor } from '../../lib/access.js'
import { fieldsOf } from '../../lib/columns.js'
import { isoSql } from '../../lib/dates.js'
import { type EventSource, eventsInsert } from '../../lib/events.js'
import {
  crewRecordById,
  type ExpiringRow,
  expiringWireSql,
  expiringById,
  expiringOfUser,
  expiryStatusOfRow,
  toExpiringFields,
} from '../crew-records/crew-records.queries.js'
import type { ExpiryListQuery } from '../crew-records/crew-records.schemas.js'
import type { MoveEvent, VerificationFields } from '../verifications/verifications.queries.js'
import { DOCUMENT_COLUMNS, type IdentityDocument } from './identity-documents.schemas.js'

const toIdentityDocument = (row: ExpiringRow & Selectable<IdentityDocumentsTable>): IdentityDocument => ({
  ...toExpiringFields(row),
  documentType: row.document_type,
  ...fieldsOf(DOCUMENT_COLUMNS, row),
})

/** A document as the client receives it, over its row and its verification's (DECISIONS §11's data). */
export const identityDocumentWire = (orgId: string, days: number) =>
  expiringWireSql('identity_documents', { documentType: 'document_type', ...DOCUMENT_COLUMNS }, orgId, days)

export async function listIdentityDocuments(db: Db, orgId: string, days: number, userId: string, query?: ExpiryListQuery) {
  const rows = await expiringOfUser(db, 'identity_documents', orgId, days, userId, query).selectAll('identity_documents').execute()
  return rows.map(toIdentityDocument)
}

export async function findIdentityDocument(db: Db, orgId: string, days: number, id: string, ownerId?: string) {
  const row = await expiringById(db, 'identity_documents', orgId, days, id, ownerId).selectAll('identity_documents').executeTakeFirst()
  return row && toIdentityDocument(row)
}

/** One document, locked until the transaction ends; `ownerId` narrows it to that user's (crew). */
export const lockIdentityDocument = (trx: Db, orgId: string, id: string, ownerId?: string) =>
  crewRecordById(trx, 'identity_documents', orgId, id, ownerId).selectAll('identity_documents').forUpdate().executeTakeFirst()

export interface NewIdentityDocument {
  id: string
  userId: string
  columns: Omit<Insertable<IdentityDocumentsTable>, 'id' | 'organization_id' | 'user_id'>
  /** The upload the document references: it must be of the organization, arrived, and (for crew) the owner's. */
  upload?: { id: string; ownerId?: string }
  review: { fields: VerificationFields; event: MoveEvent }
  /** Who creates it: the `identity_document.created` event is written by the same statement. */
  source: EventSource | Actor
}

/**
 * The created document in its wire shape, as the event's data: what the request fixed is mapped in
 * TypeScript, the times and the expiry status come from the inserted row.
 */
function createdData(doc: NewIdentityDocument, orgId: string, days: number) {
  const { id, userId, columns, review } = doc
  const known = toIdentityDocument({
    document_number: null,
    issuing_country: null,
    issue_date: null,
    expiry_date: null,
    upload_id: null,
    notes: null,
    ...columns,
    id,
    organization_id: orgId,
    user_id: userId,
    created_at: new Date(0),
    updated_at: new Date(0),
    expiry_status: 'valid',
    target_type: 'identity_document',
    target_id: id,
    status: review.fields.status,
    rejection_reason: review.fields.rejection_reason,
    reviewed_at: review.fields.reviewed_at,
  })
  return sql<{ target_id: string; data: unknown }>`select doc.id as target_id, ${JSON.stringify(known)}::jsonb || jsonb_build_object(
      'createdAt', ${isoSql(sql.ref('doc.created_at'))}, 'updatedAt', ${isoSql(sql.ref('doc.updated_at'))},
      'status', ${expiryStatusOfRow('doc', 'identity_documents', orgId, days)}) as data
    from doc`
}

export type CreateOutcome = { found: 'user' } | { found: 'upload' } | { found: 'created'; document: IdentityDocument }

/**
 * Creates a document with its verification and the verification's first event in ONE statement: the
 * user's existence and the upload reference are conditions of the insert (so no transaction is needed
 * and no separate check races the write), and the response row comes back from RETURNING.
 */
export async function insertIdentityDocument(db: Db, orgId: string, days: number, doc: NewIdentityDocument): Promise<CreateOutcome> {
  const { fields, event } = doc.review
  const columns = { ...doc.columns, id: doc.id, organization_id: orgId, user_id: doc.userId }
  const names = Object.keys(columns) as (keyof typeof columns)[]
  const upload = doc.upload
  const row = await db
    .with('owner', (qc) => qc.selectFrom('users').select('id').where('organization_id', '=', orgId).where('id', '=', doc.userId))
    .with('doc', (qc) =>
      qc
        .insertInto('identity_documents')
        .columns(names)
        .expression((eb) =>
          eb
            .selectFrom('owner')
            .select(names.map((name) => eb.val(columns[name]).as(name)))
            .$if(upload !== undefined, (qb) =>
              qb.where(({ exists, selectFrom }) =>
                exists(
                  selectFrom('uploads')
                    .select('uploads.id')
                    .where('uploads.organization_id', '=', orgId)
                    .where('uploads.id', '=', upload!.id)
                    .where('uploads.status', 'in', ['ready', 'uploaded'])
                    .$if(upload?.ownerId !== undefined, (q) => q.where('uploads.user_id', '=', upload!.ownerId!)),
                ),
              ),
            ),
        )
        .returningAll(),
    )
    .with('ver', (qc) =>
      qc
        .insertInto('verifications')
        .columns(['target_type', 'target_id', 'organization_id', 'user_id', ...(Object.keys(fields) as (keyof VerificationFields)[])])
        .expression((eb) =>
          eb
            .selectFrom('doc')
            .select([
              eb.val('identity_document' as const).as('target_type'),
              'doc.id as target_id',
              'doc.organization_id',
              'doc.user_id',
              ...Object.entries(fields).map(([name, value]) => eb.val(value).as(name)),
            ]),
        )
        .returning(['target_type', 'target_id', 'status', 'rejection_reason', 'reviewed_at']),
    )
    .with('event', (qc) =>
      qc
        .insertInto('verification_events')
        .columns(['organization_id', 'target_type', 'target_id', 'from_status', 'to_status', 'action', 'actor_user_id', 'reason'])
        .expression((eb) =>
          eb
            .selectFrom('ver')
            .select([
              eb.val(orgId).as('organization_id'),
              'ver.target_type',
              'ver.target_id',
              eb.val(null).as('from_status'),
              'ver.status as to_status',
              eb.val(event.action).as('action'),
              eb.val(event.actorUserId).as('actor_user_id'),
              eb.val(event.reason).as('reason'),
            ]),
        ),
    )
    .with('audit', (qc) => eventsInsert(qc, doc.source, 'identity_document.created', 'identity_document', createdData(doc, orgId, days), 1))
    .selectFrom('owner')
    .leftJoin('doc', (join) => join.onTrue())
    .leftJoin('ver', (join) => join.onTrue())
    .selectAll('doc')
    .select(['ver.target_type', 'ver.target_id', 'ver.status', 'ver.rejection_reason', 'ver.reviewed_at'])
    .select(expiryStatusOfRow('doc', 'identity_documents', orgId, days).as('expiry_status'))
    .executeTakeFirst()
  if (!row) return { found: 'user' }
  if (row.id === null) return { found: 'upload' }
  return { found: 'created', document: toIdentityDocument(row as ExpiringRow & Selectable<IdentityDocumentsTable>) }
}
