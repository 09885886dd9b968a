import { sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { insertCourse } from '../../../test/factories.js'
import type { Db } from '../../db/database.js'

// Test data written straight to the database, so these tests do not depend on the ships, courses
// and assignments endpoints. Registrations keep course_stats.enrollments as the assignment writers do.

let imoCounter = 0
const nextImoText = () => String(1_000_000 + (imoCounter++ % 8_999_999))

export async function insertShip(db: Db, orgId: string, name = 'MV Fixture') {
  const id = uuidv7()
  await db.insertInto('ships').values({ id, organization_id: orgId, name, imo_number: nextImoText() }).execute()
  return id
}

export async function insertAssignment(db: Db, orgId: string, userId: string, shipId: string) {
  const id = uuidv7()
  await db.insertInto('assignments').values({ id, organization_id: orgId, user_id: userId, ship_id: shipId, role: 'Bosun' }).execute()
  return id
}

export async function insertRegistration(db: Db, orgId: string, assignmentId: string, courseId: string) {
  const id = uuidv7()
  await db.insertInto('registrations').values({ id, organization_id: orgId, assignment_id: assignmentId, course_id: courseId }).execute()
  await db
    .insertInto('course_stats')
    .values({ course_id: courseId, organization_id: orgId, enrollments: 1 })
    .onConflict((oc) => oc.column('course_id').doUpdateSet({ enrollments: sql`course_stats.enrollments + 1` }))
    .execute()
  return id
}

export interface Enrollment {
  registrationId: string
  assignmentId: string
  courseId: string
  shipId: string
}

/** A registration of `userId`, creating the ship, assignment and course that are not given. */
export async function enroll(
  db: Db,
  orgId: string,
  userId: string,
  given: { courseId?: string; shipId?: string; assignmentId?: string } = {},
): Promise<Enrollment> {
  const shipId = given.shipId ?? (await insertShip(db, orgId))
  const assignmentId = given.assignmentId ?? (await insertAssignment(db, orgId, userId, shipId))
  const courseId = given.courseId ?? (await insertCourse(db, orgId))
  const registrationId = await insertRegistration(db, orgId, assignmentId, courseId)
  return { registrationId, assignmentId, courseId, shipId }
}

export function courseStats(db: Db, courseId: string) {
  return db
    .selectFrom('course_stats')
    .select(['enrollments', 'attempted', 'attempts_total', 'passed'])
    .where('course_id', '=', courseId)
    .executeTakeFirst()
}
