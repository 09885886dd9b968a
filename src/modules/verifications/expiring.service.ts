import type { Db } from '../../db/database.js'
import type { Actor } from '../../lib/access.js'
import { IssueList } from '../../lib/errors.js'
import { findReferenceableUpload } from '../uploads/uploads.queries.js'
import { allFields, columnsOf, type ExpiringKind, editableFields } from './expiring.js'
import { findExpiring } from './expiring.queries.js'
import { checkDateOrder, dateField } from './records.js'
import type { RecordRow } from './records.queries.js'
import { type Check, createRecord, editRecord } from './records.service.js'

type Body = Record<string, unknown>

/** An upload of the caller's organization whose content arrived; crew may only reference their own. */
async function checkUpload(trx: Db, actor: Actor, uploadId: unknown, issues: IssueList): Promise<void> {
  if (typeof uploadId !== 'string') return
  const upload = await findReferenceableUpload(trx, actor.orgId, uploadId)
  if (!upload || (actor.role === 'crew' && upload.user_id !== actor.userId)) {
    issues.add(['body', 'uploadId'], 'Upload not found or not ready to be referenced', 'value_error')
  }
}

/** Date order and upload reference, reported together; on PATCH only what the request changes. */
function checks(kind: ExpiringKind, actor: Actor, body: Body, sent: Body): Check {
  return async (trx: Db, current?: RecordRow) => {
    const issues = new IssueList()
    const typeField = kind.typeField.wire
    if (current && body[typeField] !== undefined) issues.add(['body', typeField], `${typeField} cannot be changed`, 'frozen_field')
    checkDateOrder(issues, dateField('issueDate', 'issue_date', sent, current), dateField('expiryDate', 'expiry_date', sent, current))
    if (sent.upload_id !== current?.upload_id) await checkUpload(trx, actor, sent.upload_id, issues)
    issues.throwIfAny()
  }
}

const reader = (kind: ExpiringKind, days: number, orgId: string) => (trx: Db, id: string) => findExpiring(trx, kind, days, orgId, id)

export function createExpiring(db: Db, kind: ExpiringKind, days: number, actor: Actor, userId: string, body: Body) {
  const columns = columnsOf(allFields(kind), body)
  const values = { ...columns, uploaded_by_user_id: actor.userId }
  return createRecord(db, kind, actor, userId, values, checks(kind, actor, body, columns), reader(kind, days, actor.orgId))
}

export function editExpiring(db: Db, kind: ExpiringKind, days: number, actor: Actor, id: string, body: Body) {
  const sent = columnsOf(editableFields(kind), body)
  return editRecord(db, kind, actor, id, sent, checks(kind, actor, body, sent), reader(kind, days, actor.orgId))
}
