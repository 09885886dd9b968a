import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { columnsOf } from '../../../lib/columns.js'
import { checkDateOrder } from '../../../lib/dates.js'
import { IssueList } from '../../../lib/errors.js'
import type { Loc } from '../../../lib/validation.js'
import { syncAfterAssignmentWrite } from '../sea-service/contract-service.js'
import { type AssignmentColumns, type AssignmentRow, lockShip, oneActivePerShip, toAssignment, usersOfOrg } from './assignments.queries.js'
import { ASSIGNMENT_COLUMNS, ASSIGNMENT_DATE_ORDER, type Assignment, type AssignmentDates } from './assignments.schemas.js'
import { bulkInsertAssignments, bulkUpdateAssignments } from './bulk.queries.js'
import type {
  BulkAssignCourses,
  BulkAssignCoursesResult,
  BulkAssignment,
  BulkCreate,
  BulkCreateResult,
  BulkRemoveCourses,
  BulkRemoveCoursesResult,
  BulkUpdate,
  BulkUpdateResult,
} from './bulk.schemas.js'
import { bulkAddCourses, bulkRemoveCourses, curriculumCourses, lockCourses } from './bulk-courses.queries.js'

// The whole request is validated before anything is written; then each operation is one
// transaction whose number of statements does not depend on the number of ids.

/**
 * Ids as the database spells them (lower case). Exact repeats are refused by the schema already;
 * this also catches one id written in two cases.
 */
function distinctIds(ids: string[], loc: Loc, issues: IssueList): string[] {
  const lower = ids.map((id) => id.toLowerCase())
  if (new Set(lower).size !== lower.length) issues.add(['body', ...loc], 'List items must be unique', 'value_error')
  return lower
}

/** The change a bulk update applies: set values, null for cleared dates, absent for unchanged. */
function bulkChanges(body: BulkUpdate, issues: IssueList): AssignmentColumns {
  const cleared = new Set(body.clearFields ?? [])
  const both = [...cleared].filter((field) => body[field] !== undefined)
  if (both.length > 0) issues.add(['body', 'clearFields'], `Cannot both set and clear: ${both.join(', ')}`, 'value_error')
  const date = (field: keyof AssignmentDates) => (cleared.has(field) ? null : body[field])
  const changes = columnsOf(ASSIGNMENT_COLUMNS, {
    role: body.role,
    startDate: date('startDate'),
    dueDate: date('dueDate'),
    endDate: date('endDate'),
  })
  if (Object.keys(changes).length === 0) issues.add(['body'], 'Nothing to change: give role, a date or clearFields', 'value_error')
  return changes
}

const toBulkAssignment = ({ dueDate: _, ...item }: Assignment): BulkAssignment => item

export async function bulkUpdate(db: Db, actor: Actor, body: BulkUpdate): Promise<BulkUpdateResult> {
  const issues = new IssueList()
  const ids = distinctIds(body.assignmentIds, ['assignmentIds'], issues)
  const changes = bulkChanges(body, issues)
  issues.throwIfAny()
  // One statement: atomic without a transaction of its own.
  const rows = await oneActivePerShip(bulkUpdateAssignments(db, actor, ids, changes))
  const updated = rows.filter((r) => r.problems.length === 0)
  const failed = rows.filter((r) => r.problems.length > 0)
  const endDateTouched = body.endDate !== undefined || (body.clearFields ?? []).includes('endDate')
  await syncAfterAssignmentWrite(db, actor, updated as AssignmentRow[], endDateTouched)
  return {
    updatedCount: updated.length,
    assignments: updated.map((r) => toBulkAssignment(toAssignment(r as AssignmentRow))),
    failedAssignmentIds: failed.map((r) => r.requested_id),
    errors: failed.flatMap((r) => r.problems.map((problem) => `${r.requested_id}: ${problem}`)),
  }
}

export async function bulkCreate(db: Db, actor: Actor, body: BulkCreate): Promise<BulkCreateResult> {
  const { orgId } = actor
  const issues = checkDateOrder(new IssueList(), ASSIGNMENT_DATE_ORDER, body)
  const userIds = distinctIds(body.userIds, ['userIds'], issues)
  // The created assignments' events are written by the statement that creates them.
  return db.transaction().execute(async (trx) => {
    if (!(await lockShip(trx, orgId, body.shipId))) issues.add(['body', 'shipId'], 'Ship not found', 'value_error')
    const known = await usersOfOrg(trx, orgId, userIds)
    userIds.forEach((id, i) => {
      if (!known.has(id)) issues.add(['body', 'userIds', i], 'User not found', 'value_error')
    })
    issues.throwIfAny()
    const { startDate = null, dueDate = null, endDate = null } = body
    const values = { ship_id: body.shipId, role: body.role, start_date: startDate, due_date: dueDate, end_date: endDate }
    const rows = await oneActivePerShip(bulkInsertAssignments(trx, actor, userIds, values))
    const createdRows = rows.filter((r) => r.id != null) as AssignmentRow[]
    await syncAfterAssignmentWrite(trx, actor, createdRows, false)
    const created = createdRows.map(toAssignment)
    return {
      createdCount: created.length,
      assignments: created,
      skippedUserIds: rows.filter((r) => r.id == null).map((r) => r.requested_user_id),
    }
  })
}

/**
 * The courses a bulk assignment names, directly or through a curriculum, locked against deletion until
 * the transaction ends. Ones the organization does not have are a 422 at their place in the body.
 */
async function lockNamedCourses(trx: Db, orgId: string, body: BulkAssignCourses, issues: IssueList) {
  const listed = distinctIds(body.courseIds ?? [], ['courseIds'], issues)
  const fromCurriculum = body.curriculumId ? await curriculumCourses(trx, orgId, body.curriculumId) : []
  if (fromCurriculum === null) issues.add(['body', 'curriculumId'], 'Curriculum not found', 'value_error')
  const known = await lockCourses(trx, orgId, [...listed, ...(fromCurriculum ?? [])])
  listed.forEach((id, i) => {
    if (!known.has(id)) issues.add(['body', 'courseIds', i], 'Course not found', 'value_error')
  })
  issues.throwIfAny()
  return [...new Set([...listed, ...(fromCurriculum ?? [])])]
}

export async function bulkAssignCourses(db: Db, actor: Actor, body: BulkAssignCourses): Promise<BulkAssignCoursesResult> {
  const { orgId } = actor
  const issues = new IssueList()
  const ids = distinctIds(body.assignmentIds, ['assignmentIds'], issues)
  if (!body.courseIds?.length && body.curriculumId === undefined) issues.add(['body'], 'Give courseIds or curriculumId', 'value_error')
  return db.transaction().execute(async (trx) => {
    const courseIds = await lockNamedCourses(trx, orgId, body, issues)
    const counts = await bulkAddCourses(trx, actor, ids, courseIds)
    return { updatedCount: counts.updated_count, totalCoursesAssigned: counts.total, failedAssignmentIds: counts.failed }
  })
}

/**
 * `courseIds` name what to remove, not references to check (DECISIONS §4): a course that no listed
 * assignment has, even one that does not exist or is another organization's, is skipped silently.
 */
export async function bulkRemove(db: Db, actor: Actor, body: BulkRemoveCourses): Promise<BulkRemoveCoursesResult> {
  const issues = new IssueList()
  const ids = distinctIds(body.assignmentIds, ['assignmentIds'], issues)
  const courseIds = distinctIds(body.courseIds, ['courseIds'], issues)
  issues.throwIfAny()
  // One statement: atomic without a transaction of its own.
  const counts = await bulkRemoveCourses(db, actor, ids, courseIds)
  return { updatedCount: counts.updated_count, totalCoursesRemoved: counts.total, failedAssignmentIds: counts.failed }
}
