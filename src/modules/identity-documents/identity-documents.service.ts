import type { Db } from '../../db/database.js'
import { type Actor, rowOwner } from '../../lib/access.js'
import { columnsOf } from '../../lib/columns.js'
import { notFound } from '../../lib/errors.js'
import { insertCrewRecord } from '../crew-records/crew-records.queries.js'
import { storedUploadId } from '../crew-records/crew-records.schemas.js'
import { applyEdit, checkExpiringWrite } from '../crew-records/crew-records.service.js'
import { startReview } from '../verifications/verifications.service.js'
import { findIdentityDocument, lockIdentityDocument } from './identity-documents.queries.js'
import {
  DOCUMENT_COLUMNS,
  type IdentityDocument,
  type IdentityDocumentCreate,
  type IdentityDocumentUpdate,
} from './identity-documents.schemas.js'

export const LABEL = 'Identity document'
export const target = (id: string) => ({ type: 'identity_document' as const, id })

/** The columns a request sets, the country upper-case as stored. */
function toColumns(body: IdentityDocumentUpdate) {
  const { issuingCountry, uploadId } = body
  return columnsOf(DOCUMENT_COLUMNS, {
    ...body,
    issuingCountry: issuingCountry ? issuingCountry.toUpperCase() : issuingCountry,
    uploadId: storedUploadId(uploadId),
  })
}

export function createIdentityDocument(db: Db, actor: Actor, userId: string, body: IdentityDocumentCreate, days: number) {
  const columns = { ...toColumns(body), document_type: body.documentType, uploaded_by_user_id: actor.userId }
  return db.transaction().execute(async (trx): Promise<IdentityDocument> => {
    await checkExpiringWrite(trx, actor, { body, uploadId: columns.upload_id })
    const id = await insertCrewRecord(trx, 'identity_documents', actor.orgId, userId, columns)
    await startReview(trx, actor, userId, target(id))
    return (await findIdentityDocument(trx, actor.orgId, days, id))!
  })
}

/** PATCH: omitted fields stay, null clears; documentType cannot change. */
export function editIdentityDocument(db: Db, actor: Actor, id: string, body: IdentityDocumentUpdate, days: number) {
  const sent = toColumns(body)
  return db.transaction().execute(async (trx): Promise<IdentityDocument> => {
    const current = await lockIdentityDocument(trx, actor.orgId, id, rowOwner(actor))
    if (!current) throw notFound(LABEL)
    await checkExpiringWrite(trx, actor, { body, uploadId: sent.upload_id, current: { row: current, typeField: 'documentType' } })
    await applyEdit(trx, actor, 'identity_documents', target(id), current, sent)
    return (await findIdentityDocument(trx, actor.orgId, days, id))!
  })
}
