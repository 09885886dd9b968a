import type { Db } from '../../db/database.js'
import { type Actor, rowOwner } from '../../lib/access.js'
import { columnsOf } from '../../lib/columns.js'
import { notFound } from '../../lib/errors.js'
import { objectEvent, withEvents } from '../../lib/events.js'
import { insertCrewRecord } from '../crew-records/crew-records.queries.js'
import { storedUploadId } from '../crew-records/crew-records.schemas.js'
import { applyEdit, checkExpiringWrite } from '../crew-records/crew-records.service.js'
import { startReview } from '../verifications/verifications.service.js'
import { findCertificate, lockCertificate } from './certificates.queries.js'
import { CERTIFICATE_COLUMNS, type Certificate, type CertificateCreate, type CertificateUpdate } from './certificates.schemas.js'

export const LABEL = 'Certificate'
export const target = (id: string) => ({ type: 'certificate' as const, id })

/** The columns a request sets. */
const toColumns = (body: CertificateUpdate) => columnsOf(CERTIFICATE_COLUMNS, { ...body, uploadId: storedUploadId(body.uploadId) })

export function createCertificate(db: Db, actor: Actor, userId: string, body: CertificateCreate, days: number) {
  const columns = { ...toColumns(body), certificate_type: body.certificateType, uploaded_by_user_id: actor.userId }
  return withEvents(db, actor, async (trx, events): Promise<Certificate> => {
    await checkExpiringWrite(trx, actor, { body, uploadId: columns.upload_id })
    const id = await insertCrewRecord(trx, 'certificates', actor.orgId, userId, columns)
    await startReview(trx, actor, userId, target(id))
    const certificate = (await findCertificate(trx, actor.orgId, days, id))!
    events.push(objectEvent('certificate.created', 'certificate', certificate))
    return certificate
  })
}

/** PATCH: omitted fields stay, null clears; certificateType cannot change. */
export function editCertificate(db: Db, actor: Actor, id: string, body: CertificateUpdate, days: number) {
  const sent = toColumns(body)
  return withEvents(db, actor, async (trx, events): Promise<Certificate> => {
    const current = await lockCertificate(trx, actor.orgId, id, rowOwner(actor))
    if (!current) throw notFound(LABEL)
    await checkExpiringWrite(trx, actor, { body, uploadId: sent.upload_id, current: { row: current, typeField: 'certificateType' } })
    await applyEdit(trx, actor, 'certificates', target(id), current, sent, (t) => findCertificate(t, actor.orgId, days, id), events)
    return (await findCertificate(trx, actor.orgId, days, id))!
  })
}
