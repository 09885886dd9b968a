import type { Db } from '../../db/database.js'
import type { Actor } from '../../lib/access.js'
import { definedOnly } from '../../lib/columns.js'
import { IssueList } from '../../lib/errors.js'
import { checkDateOrder, dateField } from '../verifications/records.js'
import type { RecordRow } from '../verifications/records.queries.js'
import { createRecord, editRecord } from '../verifications/records.service.js'
import { findExperience } from './experience.queries.js'
import { type ExperienceUpdate, experienceKind } from './experience.schemas.js'

const toColumns = (body: ExperienceUpdate) =>
  definedOnly({
    company_name: body.companyName,
    position: body.position,
    ship_type: body.shipType,
    start_date: body.startDate,
    end_date: body.endDate,
    notes: body.notes,
  })

type Columns = ReturnType<typeof toColumns>

const checkDates = (sent: Columns) => async (_trx: Db, current?: RecordRow) => {
  const issues = new IssueList()
  checkDateOrder(issues, dateField('startDate', 'start_date', sent, current), dateField('endDate', 'end_date', sent, current))
  issues.throwIfAny()
}

const reader = (orgId: string) => (trx: Db, id: string) => findExperience(trx, orgId, id)

export function createExperience(db: Db, actor: Actor, userId: string, body: ExperienceUpdate) {
  const columns = toColumns(body)
  return createRecord(db, experienceKind, actor, userId, columns, checkDates(columns), reader(actor.orgId))
}

export function editExperience(db: Db, actor: Actor, id: string, body: ExperienceUpdate) {
  const columns = toColumns(body)
  return editRecord(db, experienceKind, actor, id, columns, checkDates(columns), reader(actor.orgId))
}
