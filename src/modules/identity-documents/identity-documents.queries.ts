import type { Selectable } from 'kysely'
import type { Db } from '../../db/database.js'
import type { IdentityDocumentsTable } from '../../db/schema.js'
import { fieldsOf } from '../../lib/columns.js'
import { crewRecordById, type ExpiringRow, expiringById, expiringOfUser, toExpiringFields } from '../crew-records/crew-records.queries.js'
import type { ExpiryListQuery } from '../crew-records/crew-records.schemas.js'
import { DOCUMENT_COLUMNS, type IdentityDocument } from './identity-documents.schemas.js'

const toIdentityDocument = (row: ExpiringRow & Selectable<IdentityDocumentsTable>): IdentityDocument => ({
  ...toExpiringFields(row),
  documentType: row.document_type,
  ...fieldsOf(DOCUMENT_COLUMNS, row),
})

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
