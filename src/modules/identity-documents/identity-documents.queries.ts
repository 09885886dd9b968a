import type { Selectable } from 'kysely'
import type { Db } from '../../db/database.js'
import type { IdentityDocumentsTable } from '../../db/schema.js'
import { fieldsOf } from '../../lib/columns.js'
import {
  type ExpiringRow,
  expiringById,
  expiringOfUser,
  expiringWireSql,
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

const insert = reviewedInsert('identity_documents', 'identity_document.created', (p) => identityDocumentWire(p.orgId, p.days!))

/** Creates a document, its verification and its event in one statement (`reviewedInsert`). */
export async function insertIdentityDocument(
  db: Db,
  orgId: string,
  days: number,
  doc: NewReviewed<'identity_documents'>,
): Promise<InsertOutcome<IdentityDocument>> {
  const outcome = await insert(db, { orgId, record: doc, days })
  if (outcome.found !== 'created') return outcome
  return { found: 'created', row: toIdentityDocument(outcome.row as ExpiringRow & Selectable<IdentityDocumentsTable>) }
}
