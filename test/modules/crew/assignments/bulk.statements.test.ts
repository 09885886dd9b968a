import { type KyselyPlugin, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testConfig, testDatabase } from '../../../app.js'
import { createOrg, insertCourse, type TestOrg } from '../../../factories.js'
import { type App, buildApp } from '../../../../src/app.js'
import type { Db } from '../../../../src/db/database.js'
import { createShip } from '../../../fixtures/assignments.js'

// Bulk operations are set-based: the number of SQL statements a request runs must not grow with
// the number of ids. The app runs over a Kysely that counts every statement it executes (as their
// results arrive, so statements compiled once count on every run).
let statements = 0
const counter: KyselyPlugin = {
  transformQuery: ({ node }) => node,
  transformResult: async ({ result }) => {
    statements++
    return result
  },
}

let app: App
let db: Db
let org: TestOrg
beforeAll(async () => {
  const database = await testDatabase()
  db = database.db
  app = await buildApp({ config: testConfig(), database: { ...database, db: database.db.withPlugin(counter) }, logger: false })
  await app.ready()
  org = await createOrg(app, db)
})
afterAll(() => app.close())

/** n users of the organization, made with one set-based insert. */
async function seedUsers(n: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    insert into users (id, organization_id, email, first_name, last_name, role, state)
    select gen_random_uuid(), ${org.id}, 'bulk-' || gen_random_uuid() || '@example.test', 'Bulk', 'User', 'crew', 'active'
    from generate_series(1, ${n})
    returning id`.execute(db)
  return rows.map((r) => r.id)
}

/** n assignments on one ship, one per new crew member (one active assignment per user and ship). */
async function seedAssignments(n: number): Promise<string[]> {
  const [ship, userIds] = await Promise.all([createShip(org), seedUsers(n)])
  const { rows } = await sql<{ id: string }>`
    insert into assignments (id, organization_id, user_id, ship_id, role)
    select gen_random_uuid(), ${org.id}, u, ${ship.id}, 'Bosun' from unnest(${userIds}::uuid[]) u
    returning id`.execute(db)
  return rows.map((r) => r.id)
}

let requests = 0

/** The statements of one bulk request, and the events it wrote (all of them carry its request id). */
async function countStatements(path: string, body: unknown) {
  const requestId = `bulk-${path}-${++requests}-${org.id}`
  statements = 0
  const res = await org.admin.api.post(`/api/v1/learn/assignments/bulk/${path}`, body, { 'x-request-id': requestId })
  expect(res.status).toBe(200)
  const counted = statements
  const events = await db
    .selectFrom('events')
    .select(['type', sql<number>`count(*)::int`.as('n')])
    .where('organization_id', '=', org.id)
    .where('request_id', '=', requestId)
    .groupBy('type')
    .execute()
  return { statements: counted, body: res.body, events: Object.fromEntries(events.map((e) => [e.type, e.n])) }
}

describe('bulk operations run a fixed number of statements', () => {
  it('bulk update: 1000 ids cost what 10 cost', async () => {
    const ids = await seedAssignments(1010)
    const small = await countStatements('update', { assignmentIds: ids.slice(0, 10), role: 'Cook' })
    const large = await countStatements('update', { assignmentIds: ids.slice(10), role: 'Cook', clearFields: ['endDate'] })
    expect([small.body.updatedCount, large.body.updatedCount]).toEqual([10, 1000])
    // The one statement of the update, which also appends the events; clearing endDate reopens contracts,
    // whose sea service one more statement brings into step (DECISIONS §14), whatever their number.
    expect([small.statements, large.statements]).toEqual([1, 2])
    expect([small.events, large.events]).toEqual([{ 'assignment.updated': 10 }, { 'assignment.updated': 1000 }])
    // The same change again changes nothing: no event.
    expect((await countStatements('update', { assignmentIds: ids.slice(0, 10), role: 'Cook' })).events).toEqual({})
  })

  it('bulk courses and remove-courses: 1000 ids cost what 10 cost', async () => {
    const ids = await seedAssignments(1010)
    const courseIds = [await insertCourse(db, org.id), await insertCourse(db, org.id)]
    const small = await countStatements('courses', { assignmentIds: ids.slice(0, 10), courseIds })
    const large = await countStatements('courses', { assignmentIds: ids.slice(10), courseIds })
    expect([small.body.totalCoursesAssigned, large.body.totalCoursesAssigned]).toEqual([20, 2000])
    // The caller, the courses (locked), the insert chain (with the events).
    expect([small.statements, large.statements]).toEqual([2, 2])
    expect([small.events, large.events]).toEqual([{ 'assignment.courses_assigned': 10 }, { 'assignment.courses_assigned': 1000 }])

    const smallRemove = await countStatements('remove-courses', { assignmentIds: ids.slice(0, 10), courseIds })
    const largeRemove = await countStatements('remove-courses', { assignmentIds: ids.slice(10), courseIds })
    expect([smallRemove.body.totalCoursesRemoved, largeRemove.body.totalCoursesRemoved]).toEqual([20, 2000])
    // The delete chain alone (with the events): the courses are not looked up (DECISIONS §4).
    expect([smallRemove.statements, largeRemove.statements]).toEqual([1, 1])
    expect([smallRemove.events, largeRemove.events]).toEqual([{ 'assignment.courses_removed': 10 }, { 'assignment.courses_removed': 1000 }])
  })

  it('bulk create: 1000 users cost what 10 cost', async () => {
    const userIds = await seedUsers(1010)
    const ship = await createShip(org)
    const small = await countStatements('create', { userIds: userIds.slice(0, 10), shipId: ship.id, role: 'Cook' })
    const large = await countStatements('create', { userIds: userIds.slice(10), shipId: ship.id, role: 'Cook' })
    expect([small.body.createdCount, large.body.createdCount]).toEqual([10, 1000])
    // The ship (locked), the users, and the insert, whose statement writes the events too.
    expect([small.statements, large.statements]).toEqual([3, 3])
    expect([small.events, large.events]).toEqual([{ 'assignment.created': 10 }, { 'assignment.created': 1000 }])
  })
})
