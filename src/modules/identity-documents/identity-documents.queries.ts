import { type Selectable, sql } from 'kysely'
import type { Db } from '../../db/database.js'
import type { IdentityDocumentsTable } from '../../db/schema.js'
import { fieldsOf } from '../../lib/columns.js'
import { isoSql } from '../../lib/dates.js'
import {
  type ExpiringRow,
  expiringById,
  expiringOfUser,
  expiringWireSql,
  expiryStatusOfRow,
  toExpiringFields,
} from '../crew-records/crew-records.queries.js'
import type { ExpiryListQuery } from '../crew-records/crew-records.schemas.js'
import { type InsertOutcome, insertReviewed, type NewReviewed } from '../crew-records/reviewed-writes.queries.js'
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

export type NewIdentityDocument = NewReviewed<'identity_documents'>

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

/** Creates a document, its verification and its event in one statement (`insertReviewed`). */
export async function insertIdentityDocument(
  db: Db,
  orgId: string,
  days: number,
  doc: NewIdentityDocument,
): Promise<InsertOutcome<IdentityDocument>> {
  const created = { type: 'identity_document.created' as const, rows: createdData(doc, orgId, days) }
  const outcome = await insertReviewed(db, 'identity_documents', orgId, doc, created, days)
  if (outcome.found !== 'created') return outcome
  return { found: 'created', row: toIdentityDocument(outcome.row as ExpiringRow & Selectable<IdentityDocumentsTable>) }
}
