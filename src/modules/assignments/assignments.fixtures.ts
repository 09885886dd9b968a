import { v7 as uuidv7 } from 'uuid'
import { beforeAll, expect } from 'vitest'
import { type TestApp, useTestApp } from '../../../test/app.js'
import { nextImo, type TestOrg, type TestUser, useOrg } from '../../../test/factories.js'
import type { Db } from '../../db/database.js'

// Test factories of the assignments module. Courses and curriculums are written straight to the
// database so these tests do not depend on the courses module.

export interface TwoOrgs {
  t: TestApp
  org: TestOrg
  other: TestOrg
}

/** For one test file: its app and two organizations (the caller's and another one), closed after the file. */
export function setupTwoOrgs(receive: (env: TwoOrgs) => void): void {
  const t = useTestApp()
  const [org, other] = [useOrg(t), useOrg(t)]
  beforeAll(() => receive({ t, org, other }))
}

export interface TestShip {
  id: string
  name: string
  imoNumber: string
}

export async function createShip(org: TestOrg, name = `MV ${uuidv7().slice(-8)}`): Promise<TestShip> {
  const res = await org.admin.api.post('/api/v1/shared/ships', { name, imoNumber: nextImo() })
  expect(res.status).toBe(201)
  return res.body
}

export const NIL = '00000000-0000-4000-8000-000000000000'

/** The single shape, exactly, for an assignment made by these tests (users are named "Test <role>"). */
export const expectedAssignment = (user: TestUser, ship: TestShip, fields: Record<string, unknown> = {}) => ({
  id: expect.any(String),
  userId: user.id,
  userName: `Test ${user.role}`,
  userEmail: user.email,
  shipId: ship.id,
  shipName: ship.name,
  shipImoNumber: ship.imoNumber,
  role: 'Bosun',
  startDate: null,
  dueDate: null,
  endDate: null,
  isActive: true,
  ...fields,
})

export interface AssignmentInput {
  role?: string
  startDate?: string | null
  dueDate?: string | null
  endDate?: string | null
}

/** An assignment through the API, as the organization's admin. */
export async function createAssignment(org: TestOrg, user: TestUser, ship: TestShip, fields: AssignmentInput = {}) {
  const res = await org.admin.api.post('/api/v1/assignments', { userId: user.id, shipId: ship.id, role: 'Bosun', ...fields })
  expect(res.status).toBe(201)
  return res.body as { id: string } & Record<string, unknown>
}

export async function createCurriculum(db: Db, orgId: string, courseIds: string[]): Promise<string> {
  const id = uuidv7()
  await db.insertInto('curriculums').values({ id, organization_id: orgId, title: 'Curriculum' }).execute()
  for (const courseId of courseIds) {
    await db.insertInto('curriculum_courses').values({ curriculum_id: id, course_id: courseId, organization_id: orgId }).execute()
  }
  return id
}

/** The (assignment, course) pairs and registrations of these assignments, as the database has them. */
export async function coursesOf(db: Db, assignmentIds: string[]) {
  const [pairs, registrations] = await Promise.all([
    db.selectFrom('assignment_courses').select(['assignment_id', 'course_id']).where('assignment_id', 'in', assignmentIds).execute(),
    db
      .selectFrom('registrations')
      .select(['id', 'assignment_id', 'course_id', 'attempt_count', 'status'])
      .where('assignment_id', 'in', assignmentIds)
      .execute(),
  ])
  const key = (r: { assignment_id: string; course_id: string }) => `${r.assignment_id}/${r.course_id}`
  return { pairs: pairs.map(key).sort(), registrations: registrations.map(key).sort(), rows: registrations }
}

export async function enrollments(db: Db, courseIds: string[]): Promise<Record<string, number>> {
  const rows = await db.selectFrom('course_stats').select(['course_id', 'enrollments']).where('course_id', 'in', courseIds).execute()
  return Object.fromEntries(courseIds.map((id) => [id, rows.find((r) => r.course_id === id)?.enrollments ?? 0]))
}
