import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { columnsOf } from '../../../lib/columns.js'
import { checkDateOrder } from '../../../lib/dates.js'
import { IssueList, notFound } from '../../../lib/errors.js'
import { syncAfterAssignmentWrite } from '../sea-service/contract-service.js'
import { insertAssignment, updateAssignment } from './assignment-writes.queries.js'
import { type AssignmentRow, findAssignment } from './assignments.queries.js'
import { ASSIGNMENT_COLUMNS, ASSIGNMENT_DATE_ORDER, type AssignmentCreate, type AssignmentUpdate } from './assignments.schemas.js'

export async function createAssignment(db: Db, actor: Actor, body: AssignmentCreate): Promise<AssignmentRow> {
  const issues = checkDateOrder(new IssueList(), ASSIGNMENT_DATE_ORDER, body)
  const values = { user_id: body.userId, ship_id: body.shipId, ...columnsOf(ASSIGNMENT_COLUMNS, body), role: body.role }
  const { userFound, shipFound, row } = await insertAssignment(db, actor, values, issues.issues.length === 0)
  if (!userFound) issues.add(['body', 'userId'], 'User not found', 'value_error')
  if (!shipFound) issues.add(['body', 'shipId'], 'Ship not found', 'value_error')
  issues.throwIfAny()
  await syncAfterAssignmentWrite(db, actor, [row!], false)
  return row!
}

/**
 * PATCH: omitted fields stay, null clears a date; one statement. The date rules hold on the
 * resulting row: the dates sent are checked against the stored ones they do not replace by the
 * UPDATE itself, and a refusal is explained from the stored dates that statement read.
 */
export async function patchAssignment(db: Db, actor: Actor, assignmentId: string, body: AssignmentUpdate): Promise<AssignmentRow> {
  const changes = columnsOf(ASSIGNMENT_COLUMNS, body)
  if (Object.keys(changes).length === 0) {
    const row = await findAssignment(db, actor.orgId, assignmentId)
    if (!row) throw notFound('Assignment')
    return row
  }
  const outcome = await updateAssignment(db, actor, assignmentId, changes, body)
  if (!outcome) throw notFound('Assignment')
  checkDateOrder(new IssueList(), ASSIGNMENT_DATE_ORDER, body, outcome.stored).throwIfAny()
  await syncAfterAssignmentWrite(db, actor, [outcome.row!], body.endDate !== undefined)
  return outcome.row!
}
