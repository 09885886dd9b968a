import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../db/database.js'
import { type Actor, assertCanReachUser, rowOwner } from '../../lib/access.js'
import { columnsOf } from '../../lib/columns.js'
import { notFound } from '../../lib/errors.js'
import { withEvents } from '../../lib/events.js'
import { storedUploadId } from '../crew-records/crew-records.schemas.js'
import { applyEdit, checkExpiringWrite, checkOutOfOrderCreate, createdOrThrow } from '../crew-records/crew-records.service.js'
import { initialReview } from '../verifications/verifications.service.js'
import { findIdentityDocument, insertIdentityDocument, lockIdentityDocument } from './identity-documents.queries.js'
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
  return createdOrThrow(
    await insertIdentityDocument(db, actor.orgId, days, { id: uuidv7(), userId, columns, upload, review, source: actor }),
  )
}

/** PATCH: omitted fields stay, null clears; documentType cannot change. */
export function editIdentityDocument(db: Db, actor: Actor, id: string, body: IdentityDocumentUpdate, days: number) {
  const sent = toColumns(body)
  return withEvents(db, actor, async (trx, events): Promise<IdentityDocument> => {
    const current = await lockIdentityDocument(trx, actor.orgId, id, rowOwner(actor))
    if (!current) throw notFound(LABEL)
    await checkExpiringWrite(trx, actor, { body, uploadId: sent.upload_id, current: { row: current, typeField: 'documentType' } })
    await applyEdit(
      trx,
      actor,
      'identity_documents',
      target(id),
      current,
      sent,
      (t) => findIdentityDocument(t, actor.orgId, days, id),
      events,
    )
    return (await findIdentityDocument(trx, actor.orgId, days, id))!
  })
}
