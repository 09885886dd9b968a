import type { Db } from '../../db/database.js'
import { type Actor, MANAGERS } from '../../lib/access.js'
import { definedOnly } from '../../lib/columns.js'
import { IssueList, notFound } from '../../lib/errors.js'
import {
  type AssignmentColumns,
  type AssignmentRow,
  findAssignment,
  insertAssignment,
  lockAssignment,
  lockShip,
  updateAssignment,
  usersOfOrg,
} from './assignments.queries.js'
import type { AssignmentCreate, AssignmentDates, AssignmentUpdate } from './assignments.schemas.js'

/** Managers see every assignment of the organization; everyone else only their own. */
export const ownOnly = (actor: Actor) => (MANAGERS.includes(actor.role) ? undefined : actor.userId)

type DateField = keyof AssignmentDates

/**
 * The date rules on an assignment's resulting dates: startDate ≤ dueDate and startDate ≤ endDate.
 * The loc is the field of this request that breaks the rule, the later date if both were sent.
 */
export function checkDates(issues: IssueList, dates: AssignmentDates, sent: (field: DateField) => boolean): IssueList {
  for (const later of ['dueDate', 'endDate'] as const) {
    const start = dates.startDate
    const end = dates[later]
    if (!start || !end || start <= end) continue
    const field = sent(later) ? later : sent('startDate') ? 'startDate' : null
    if (field) issues.add(['body', field], `${later} must not be before startDate`, 'value_error')
  }
  return issues
}

const sentIn = (body: AssignmentDates) => (field: DateField) => body[field] !== undefined

/** The columns a request sets: omitted fields are left out, an explicit null is kept (it clears). */
export function toColumns(body: AssignmentUpdate): AssignmentColumns {
  const columns: AssignmentColumns = { role: body.role, start_date: body.startDate, due_date: body.dueDate, end_date: body.endDate }
  return definedOnly(columns)
}

export async function createAssignment(db: Db, orgId: string, body: AssignmentCreate): Promise<AssignmentRow> {
  const issues = checkDates(new IssueList(), body, sentIn(body))
  return db.transaction().execute(async (trx) => {
    const shipFound = await lockShip(trx, orgId, body.shipId)
    const users = await usersOfOrg(trx, orgId, [body.userId])
    if (!users.has(body.userId)) issues.add(['body', 'userId'], 'User not found', 'value_error')
    if (!shipFound) issues.add(['body', 'shipId'], 'Ship not found', 'value_error')
    issues.throwIfAny()
    const id = await insertAssignment(trx, orgId, { user_id: body.userId, ship_id: body.shipId, ...toColumns(body), role: body.role })
    return (await findAssignment(trx, orgId, id))!
  })
}

/** PATCH: omitted fields stay, null clears a date; the date rules hold on the resulting row. */
export async function patchAssignment(db: Db, orgId: string, assignmentId: string, body: AssignmentUpdate): Promise<AssignmentRow> {
  return db.transaction().execute(async (trx) => {
    const current = await lockAssignment(trx, orgId, assignmentId)
    if (!current) throw notFound('Assignment')
    const changes = toColumns(body)
    if (Object.keys(changes).length > 0) {
      const dates = {
        startDate: changes.start_date !== undefined ? changes.start_date : current.start_date,
        dueDate: changes.due_date !== undefined ? changes.due_date : current.due_date,
        endDate: changes.end_date !== undefined ? changes.end_date : current.end_date,
      }
      checkDates(new IssueList(), dates, sentIn(body)).throwIfAny()
      await updateAssignment(trx, orgId, assignmentId, changes)
    }
    return (await findAssignment(trx, orgId, assignmentId))!
  })
}
