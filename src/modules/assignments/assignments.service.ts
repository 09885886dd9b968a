import type { Db } from '../../db/database.js'
import type { Actor } from '../../lib/access.js'
import { columnsOf } from '../../lib/columns.js'
import { checkDateOrder } from '../../lib/dates.js'
import { IssueList, notFound } from '../../lib/errors.js'
import { type AssignmentRow, findAssignment, insertAssignment, lockAssignment, updateAssignment } from './assignments.queries.js'
import { ASSIGNMENT_COLUMNS, ASSIGNMENT_DATE_ORDER, type AssignmentCreate, type AssignmentUpdate } from './assignments.schemas.js'

export async function createAssignment(db: Db, actor: Actor, body: AssignmentCreate): Promise<AssignmentRow> {
  const issues = checkDateOrder(new IssueList(), ASSIGNMENT_DATE_ORDER, body)
  const values = { user_id: body.userId, ship_id: body.shipId, ...columnsOf(ASSIGNMENT_COLUMNS, body), role: body.role }
  const { userFound, shipFound, row } = await insertAssignment(db, actor, values, issues.issues.length === 0)
  if (!userFound) issues.add(['body', 'userId'], 'User not found', 'value_error')
  if (!shipFound) issues.add(['body', 'shipId'], 'Ship not found', 'value_error')
  issues.throwIfAny()
  return row!
}

/** PATCH: omitted fields stay, null clears a date; the date rules hold on the resulting row. */
/**
 * PATCH. A body without dates cannot break the date rules the stored row keeps, so it is one
 * statement (update and read back). A body with dates is checked against the stored dates it does
 * not replace: those are read and locked first, in a transaction, so no concurrent PATCH slips past.
 */
export async function patchAssignment(db: Db, actor: Actor, assignmentId: string, body: AssignmentUpdate): Promise<AssignmentRow> {
  const { orgId } = actor
  const changes = columnsOf(ASSIGNMENT_COLUMNS, body)
  const setsDates = ASSIGNMENT_DATE_ORDER.flat().some((field) => body[field] !== undefined)
  let row: AssignmentRow | undefined
  if (Object.keys(changes).length === 0) row = await findAssignment(db, orgId, assignmentId)
  else if (!setsDates) row = await updateAssignment(db, actor, assignmentId, changes)
  else {
    row = await db.transaction().execute(async (trx) => {
      const current = await lockAssignment(trx, orgId, assignmentId)
      if (!current) return undefined
      const stored = { startDate: current.start_date, dueDate: current.due_date, endDate: current.end_date }
      checkDateOrder(new IssueList(), ASSIGNMENT_DATE_ORDER, body, stored).throwIfAny()
      return updateAssignment(trx, actor, assignmentId, changes)
    })
  }
  if (!row) throw notFound('Assignment')
  return row
}
