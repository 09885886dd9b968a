import { type KyselyPlugin, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testConfig, testDatabase } from '../../../test/app.js'
import { createOrg, insertCourse, type TestOrg } from '../../../test/factories.js'
import { type App, buildApp } from '../../app.js'
import type { Db } from '../../db/database.js'
import { createShip } from './assignments.fixtures.js'

// Bulk operations are set-based: the number of SQL statements a request runs must not grow with
// the number of ids. The app runs over a Kysely that counts every statement its query builder
// compiles (the caller lookup of the auth hook is precompiled and not among them).
let statements = 0
const counter: KyselyPlugin = {
  transformQuery: ({ node }) => {
    statements++
    return node
  },
  transformResult: async ({ result }) => result,
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

async function countStatements(path: string, body: unknown) {
  statements = 0
  const res = await org.admin.api.post(`/api/v1/learn/assignments/bulk/${path}`, body)
  expect(res.status).toBe(200)
  return { statements, body: res.body }
}

describe('bulk operations run a fixed number of statements', () => {
  it('bulk update: 1000 ids cost what 10 cost', async () => {
    const ids = await seedAssignments(1010)
    const small = await countStatements('update', { assignmentIds: ids.slice(0, 10), role: 'Cook' })
    const large = await countStatements('update', { assignmentIds: ids.slice(10), role: 'Cook', clearFields: ['endDate'] })
    expect([small.body.updatedCount, large.body.updatedCount]).toEqual([10, 1000])
    // The caller's lookup, then the one statement of the update.
    expect([small.statements, large.statements]).toEqual([1, 1])
  })

  it('bulk courses and remove-courses: 1000 ids cost what 10 cost', async () => {
    const ids = await seedAssignments(1010)
    const courseIds = [await insertCourse(db, org.id), await insertCourse(db, org.id)]
    const small = await countStatements('courses', { assignmentIds: ids.slice(0, 10), courseIds })
    const large = await countStatements('courses', { assignmentIds: ids.slice(10), courseIds })
    expect([small.body.totalCoursesAssigned, large.body.totalCoursesAssigned]).toEqual([20, 2000])
    // The caller, the courses (locked), the insert chain.
    expect([small.statements, large.statements]).toEqual([2, 2])

    const smallRemove = await countStatements('remove-courses', { assignmentIds: ids.slice(0, 10), courseIds })
    const largeRemove = await countStatements('remove-courses', { assignmentIds: ids.slice(10), courseIds })
    expect([smallRemove.body.totalCoursesRemoved, largeRemove.body.totalCoursesRemoved]).toEqual([20, 2000])
    // The delete chain alone: the courses are not looked up (DECISIONS §4).
    expect([smallRemove.statements, largeRemove.statements]).toEqual([1, 1])
  })

  it('bulk create: 1000 users cost what 10 cost', async () => {
    const userIds = await seedUsers(1010)
    const ship = await createShip(org)
    const small = await countStatements('create', { userIds: userIds.slice(0, 10), shipId: ship.id, role: 'Cook' })
    const large = await countStatements('create', { userIds: userIds.slice(10), shipId: ship.id, role: 'Cook' })
    expect([small.body.createdCount, large.body.createdCount]).toEqual([10, 1000])
    // The caller, the ship (locked), the users, the insert.
    expect([small.statements, large.statements]).toEqual([3, 3])
  })
})
