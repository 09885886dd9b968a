import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../../db/database.js'
import { type Actor, assertCanReachUser, rowOwner } from '../../../lib/access.js'
import { columnsOf } from '../../../lib/columns.js'
import { initialReview } from '../verifications/verifications.service.js'
import { storedUploadId } from './crew-records.schemas.js'
import { checkOutOfOrderCreate, createdOrThrow, EXPIRY_DATES, editReviewed, refuseTypeChange } from './crew-records.service.js'
import { type ExpiringKind, targetOf } from './expiring-records.js'
import { expiringWire, insertExpiring } from './expiring-records.queries.js'

type Body = Record<string, unknown> & { uploadId?: string | null; issueDate?: string | null; expiryDate?: string | null }

/** The columns a request sets, its values as they are stored. */
function toColumns(kind: ExpiringKind, body: Body) {
  const stored = kind.stored ? kind.stored(body) : body
  return columnsOf(kind.columns, { ...stored, uploadId: storedUploadId(body.uploadId) }) as Record<string, unknown> & {
    upload_id?: string | null
  }
}

/** One statement, but for a body whose dates are out of order (`checkOutOfOrderCreate`). */
export async function createExpiring(db: Db, kind: ExpiringKind, actor: Actor, userId: string, body: Body, days: number) {
  const columns = { ...toColumns(kind, body), [kind.typeField.column]: body[kind.typeField.wire], uploaded_by_user_id: actor.userId }
  await checkOutOfOrderCreate(db, actor, userId, body, columns.upload_id)
  assertCanReachUser(actor, userId)
  const upload = columns.upload_id ? { id: columns.upload_id, ownerId: rowOwner(actor) } : undefined
  const review = initialReview(actor, kind.target)
  const record = { id: uuidv7(), userId, columns: columns as never, upload, review, source: actor }
  return createdOrThrow(insertExpiring(db, kind, actor.orgId, days, record))
}

/** PATCH: omitted fields stay, null clears; the kind's type cannot change. */
export async function editExpiring(db: Db, kind: ExpiringKind, actor: Actor, id: string, body: Body, days: number) {
  const columns = toColumns(kind, body)
  const uploadId = columns.upload_id
  if (kind.typeField.wire in body) {
    // Refused whatever else the body holds: read for the 404, or for the stored values the 422 lists with it.
    await refuseTypeChange(db, actor, kind.table, id, kind.label, { body, uploadId, typeField: kind.typeField.wire })
  }
  const edit = { table: kind.table, target: targetOf(kind, id), columns, wire: expiringWire(kind, actor.orgId, days), uploadId }
  return editReviewed(db, actor, kind.label, body, EXPIRY_DATES, edit)
}
