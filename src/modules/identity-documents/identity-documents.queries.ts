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
import { type InsertOutcome, type NewReviewed, reviewedInsert } from '../crew-records/reviewed-writes.queries.js'
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

type NewIdentityDocument = NewReviewed<'identity_documents'>

/** What the request fixed of the created document's wire shape, as JSON: the event's data but its times and expiry status. */
function knownData(doc: NewIdentityDocument, orgId: string) {
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
  return JSON.stringify(known)
}

// The event's data: what the request fixed, mapped in TypeScript, with the times and the expiry status of the inserted row.
const insert = reviewedInsert(
  'identity_documents',
  'identity_document.created',
  (p) => sql`select doc.id as target_id, ${p.data}::jsonb || jsonb_build_object(
      'createdAt', ${isoSql(sql.ref('doc.created_at'))}, 'updatedAt', ${isoSql(sql.ref('doc.updated_at'))},
      'status', ${expiryStatusOfRow('doc', 'identity_documents', p.orgId, p.days!)}) as data
    from doc`,
)

/** Creates a document, its verification and its event in one statement (`reviewedInsert`). */
export async function insertIdentityDocument(
  db: Db,
  orgId: string,
  days: number,
  doc: NewIdentityDocument,
): Promise<InsertOutcome<IdentityDocument>> {
  const outcome = await insert(db, { orgId, record: doc, days, data: knownData(doc, orgId) })
  if (outcome.found !== 'created') return outcome
  return { found: 'created', row: toIdentityDocument(outcome.row as ExpiringRow & Selectable<IdentityDocumentsTable>) }
}
