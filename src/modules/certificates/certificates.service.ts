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
import { certificateWire, insertCertificate } from './certificates.queries.js'
import { CERTIFICATE_COLUMNS, type Certificate, type CertificateCreate, type CertificateUpdate } from './certificates.schemas.js'

export const LABEL = 'Certificate'
export const target = (id: string) => ({ type: 'certificate' as const, id })

/** The columns a request sets. */
const toColumns = (body: CertificateUpdate) => columnsOf(CERTIFICATE_COLUMNS, { ...body, uploadId: storedUploadId(body.uploadId) })

/** One statement, but for a body whose dates are out of order (`checkOutOfOrderCreate`). */
export async function createCertificate(db: Db, actor: Actor, userId: string, body: CertificateCreate, days: number) {
  const columns = { ...toColumns(body), certificate_type: body.certificateType, uploaded_by_user_id: actor.userId }
  await checkOutOfOrderCreate(db, actor, userId, body, columns.upload_id)
  assertCanReachUser(actor, userId)
  const upload = columns.upload_id ? { id: columns.upload_id, ownerId: rowOwner(actor) } : undefined
  const review = initialReview(actor, 'certificate')
  return createdOrThrow(insertCertificate(db, actor.orgId, days, { id: uuidv7(), userId, columns, upload, review, source: actor }))
}

/** PATCH: omitted fields stay, null clears; certificateType cannot change. */
export async function editCertificate(db: Db, actor: Actor, id: string, body: CertificateUpdate, days: number) {
  const columns = toColumns(body)
  const uploadId = columns.upload_id
  if ('certificateType' in body) {
    // Refused whatever else the body holds: read for the 404, or for the stored values the 422 lists with it.
    await refuseTypeChange(db, actor, 'certificates', id, LABEL, { body, uploadId, typeField: 'certificateType' })
  }
  const edit = { table: 'certificates' as const, target: target(id), columns, wire: certificateWire(actor.orgId, days), uploadId }
  return (await editReviewed(db, actor, LABEL, body, EXPIRY_DATES, edit)) as Certificate
}
