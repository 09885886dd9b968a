import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../db/database.js'
import { type Actor, assertCanReachUser, rowOwner } from '../../lib/access.js'
import { columnsOf } from '../../lib/columns.js'
import { IssueList, notFound, ValidationFailed } from '../../lib/errors.js'
import { withEvents } from '../../lib/events.js'
import { storedUploadId } from '../crew-records/crew-records.schemas.js'
import { addUploadIssue, applyEdit, checkExpiringWrite, expiringDatesInOrder, reachUser } from '../crew-records/crew-records.service.js'
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

/**
 * One statement when the dates are in order (DECISIONS §3 checks the user, then every problem of the
 * body in one 422): a body with dates out of order takes the checks' own statements, so that its 422
 * still lists an upload problem too, or its 404 names a missing user first.
 */
export async function createIdentityDocument(db: Db, actor: Actor, userId: string, body: IdentityDocumentCreate, days: number) {
  const columns = { ...toColumns(body), document_type: body.documentType, uploaded_by_user_id: actor.userId }
  if (!expiringDatesInOrder(body)) {
    await reachUser(db, actor, userId)
    await checkExpiringWrite(db, actor, { body, uploadId: columns.upload_id })
  }
  assertCanReachUser(actor, userId)
  const upload = columns.upload_id ? { id: columns.upload_id, ownerId: rowOwner(actor) } : undefined
  const review = initialReview(actor, 'identity_document')
  const outcome = await insertIdentityDocument(db, actor.orgId, days, { id: uuidv7(), userId, columns, upload, review, source: actor })
  if (outcome.found === 'created') return outcome.document
  if (outcome.found === 'user') throw notFound('User')
  throw new ValidationFailed(addUploadIssue(new IssueList()).issues)
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
