import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../db/database.js'
import { type Actor, assertCanReachUser, rowOwner } from '../../lib/access.js'
import { columnsOf } from '../../lib/columns.js'
import { storedUploadId } from '../crew-records/crew-records.schemas.js'
import {
  checkOutOfOrderCreate,
  createdOrThrow,
  EXPIRY_DATES,
  editReviewed,
  refuseTypeChange,
} from '../crew-records/crew-records.service.js'
import { initialReview } from '../verifications/verifications.service.js'
import { identityDocumentWire, insertIdentityDocument } from './identity-documents.queries.js'
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

/** One statement, but for a body whose dates are out of order (`checkOutOfOrderCreate`). */
export async function createIdentityDocument(db: Db, actor: Actor, userId: string, body: IdentityDocumentCreate, days: number) {
  const columns = { ...toColumns(body), document_type: body.documentType, uploaded_by_user_id: actor.userId }
  await checkOutOfOrderCreate(db, actor, userId, body, columns.upload_id)
  assertCanReachUser(actor, userId)
  const upload = columns.upload_id ? { id: columns.upload_id, ownerId: rowOwner(actor) } : undefined
  const review = initialReview(actor, 'identity_document')
  return createdOrThrow(insertIdentityDocument(db, actor.orgId, days, { id: uuidv7(), userId, columns, upload, review, source: actor }))
}

/** PATCH: omitted fields stay, null clears; documentType cannot change. */
export async function editIdentityDocument(db: Db, actor: Actor, id: string, body: IdentityDocumentUpdate, days: number) {
  const columns = toColumns(body)
  const uploadId = columns.upload_id
  if ('documentType' in body) {
    // Refused whatever else the body holds: read for the 404, or for the stored values the 422 lists with it.
    await refuseTypeChange(db, actor, 'identity_documents', id, LABEL, { body, uploadId, typeField: 'documentType' })
  }
  const wire = identityDocumentWire(actor.orgId, days)
  const edit = { table: 'identity_documents' as const, target: target(id), columns, wire, uploadId }
  return (await editReviewed(db, actor, LABEL, body, EXPIRY_DATES, edit)) as IdentityDocument
}
