import { sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../src/db/database.js'
import { enroll } from './fixtures/registrations.js'
import { insertCourse, nextImo, type TestOrg } from './factories.js'
import { rowLockQueued, type StatementCounter, statementCounter } from './statement-counter.js'

// The single-item writes of the organization's data (ships, users, courses, curriculums,
// assignments): what each costs in round trips, and that the statement wrote the event expected.

let counter: StatementCounter
let db: Db
let org: TestOrg
let other: TestOrg
beforeAll(async () => {
  counter = await statementCounter()
  ;({ db, org, other } = counter)
})
afterAll(() => counter.app.close())

const cost: StatementCounter['cost'] = (send, status) => counter.cost(send, status)
const eventsOf = (targetId: string) => counter.eventsOf(targetId)
const ONE = { statements: 1, transactions: 0 }
/** A statement the database refuses (a unique or foreign key violation) sends no result, so it is not counted: nothing ran before it. */
const REFUSED = { statements: 0, transactions: 0 }

describe('ships', () => {
  const ships = '/api/v1/shared/ships'

  it('create, update and delete are one statement each, with their event', async () => {
    counter.reset()
    const created = await org.admin.api.post(ships, { name: 'MV One', imoNumber: nextImo() })
    expect([created.status, counter.statements, counter.transactions]).toEqual([201, 1, 0])
    const ship = created.body
    const path = `${ships}/${ship.id}`
    counter.reset()
    const updated = await org.admin.api.patch(path, { flag: 'Norway', name: 'MV One' })
    expect([updated.status, updated.body, counter.statements, counter.transactions]).toEqual([200, { ...ship, flag: 'Norway' }, 1, 0])
    // Nothing changed: the update time moves, no event is written.
    expect(await cost(() => org.admin.api.patch(path, { flag: 'Norway' }), 200)).toEqual(ONE)
    expect(await cost(() => org.admin.api.delete(path), 204)).toEqual(ONE)
    expect(await eventsOf(ship.id)).toEqual([
      { type: 'ship.created', data: ship },
      { type: 'ship.updated', data: { changes: { flag: [null, 'Norway'] } } },
      { type: 'ship.deleted', data: updated.body },
    ])
    expect(await db.selectFrom('ships').select('id').where('id', '=', ship.id).execute()).toEqual([])
  })

  it("another organization's ship, a taken IMO number and a ship in use are refused in that statement, writing nothing", async () => {
    const imoNumber = nextImo()
    const ship = (await org.admin.api.post(ships, { name: 'MV Two', imoNumber })).body
    const taken = (await org.admin.api.post(ships, { name: 'MV Three', imoNumber: nextImo() })).body
    const path = `${ships}/${ship.id}`
    expect(await cost(() => other.admin.api.patch(path, { name: 'Theirs' }), 404)).toEqual(ONE)
    expect(await cost(() => other.admin.api.delete(path), 404)).toEqual(ONE)
    expect(await cost(() => org.admin.api.patch(`${ships}/${taken.id}`, { imoNumber }), 409)).toEqual(REFUSED)
    expect(await cost(() => org.admin.api.post(ships, { name: 'MV Copy', imoNumber }), 409)).toEqual(REFUSED)
    await org.admin.api.post('/api/v1/assignments/', { userId: org.crew.id, shipId: ship.id, role: 'Cook' })
    expect(await cost(() => org.admin.api.delete(path), 409)).toEqual(REFUSED)
    expect((await org.admin.api.get(path)).body).toEqual(ship)
    expect(await eventsOf(ship.id)).toEqual([{ type: 'ship.created', data: ship }])
    expect(await eventsOf(taken.id)).toEqual([{ type: 'ship.created', data: taken }])
    const copies = await db.selectFrom('ships').select('id').where('name', '=', 'MV Copy').execute()
    const copyEvents = await db.selectFrom('events').select('id').where(sql`data->>'name'`, '=', 'MV Copy').execute()
    expect([copies, copyEvents]).toEqual([[], []])
  })
})

describe('assignments', () => {
  const assignments = '/api/v1/assignments/'
  const newShip = async () => (await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Four', imoNumber: nextImo() })).body

  it('create is one statement, checking the user and the ship and writing its event', async () => {
    const ship = await newShip()
    const user = await org.addUser('crew')
    counter.reset()
    const created = await org.admin.api.post(assignments, { userId: user.id, shipId: ship.id, role: 'Cook', startDate: '2026-03-01' })
    expect([created.status, counter.statements, counter.transactions]).toEqual([201, 1, 0])
    expect(created.body).toMatchObject({ userEmail: user.email, shipName: 'MV Four', startDate: '2026-03-01', isActive: true })
    expect(await eventsOf(created.body.id)).toEqual([{ type: 'assignment.created', data: created.body }])
    // A second active assignment on the ship: the unique index refuses the statement.
    expect(await cost(() => org.admin.api.post(assignments, { userId: user.id, shipId: ship.id, role: 'Cook' }), 409)).toEqual(REFUSED)
  })

  it("another organization's user or ship, and dates out of order, are refused by that statement, writing nothing", async () => {
    const ship = await newShip()
    const theirs = (await other.admin.api.post('/api/v1/shared/ships', { name: 'MV Theirs', imoNumber: nextImo() })).body
    counter.reset()
    const refused = await org.admin.api.post(assignments, {
      userId: other.crew.id,
      shipId: theirs.id,
      role: 'Cook',
      startDate: '2026-03-01',
      endDate: '2026-02-01',
    })
    expect([refused.status, refused.body, counter.statements, counter.transactions]).toEqual([
      422,
      {
        detail: [
          { loc: ['body', 'endDate'], msg: 'endDate must not be before startDate', type: 'value_error' },
          { loc: ['body', 'userId'], msg: 'User not found', type: 'value_error' },
          { loc: ['body', 'shipId'], msg: 'Ship not found', type: 'value_error' },
        ],
      },
      1,
      0,
    ])
    // Dates out of order alone: the user and the ship are found, nothing is inserted.
    const body = { userId: org.crew.id, shipId: ship.id, role: 'Cook', startDate: '2026-03-01', dueDate: '2026-02-01' }
    expect(await cost(() => org.admin.api.post(assignments, body), 422)).toEqual(ONE)
    const written = await db.selectFrom('assignments').select('id').where('ship_id', 'in', [ship.id, theirs.id]).execute()
    const events = await db.selectFrom('events').select('id').where(sql`data->>'shipId'`, 'in', [ship.id, theirs.id]).execute()
    expect([written, events]).toEqual([[], []])
  })

  it('PATCH is one statement, dates or not; the date rules against the stored dates are part of it', async () => {
    const ship = await newShip()
    const dates = { startDate: '2026-03-01', dueDate: '2026-03-15', endDate: '2026-09-01' }
    const assignment = (await org.admin.api.post(assignments, { userId: org.crew.id, shipId: ship.id, role: 'Cook', ...dates })).body
    const path = `/api/v1/assignments/${assignment.id}`
    expect(await cost(() => org.admin.api.patch(path, { dueDate: '2026-04-01' }), 200)).toEqual(ONE)
    expect(await cost(() => org.admin.api.patch(path, { role: 'Bosun', endDate: '2026-09-02' }), 200)).toEqual(ONE)
    // The stored start date is kept: a due date before it is refused, explained from the stored row.
    counter.reset()
    const refused = await org.admin.api.patch(path, { dueDate: '2026-02-01' })
    expect([refused.status, refused.body, counter.statements, counter.transactions]).toEqual([
      422,
      { detail: [{ loc: ['body', 'dueDate'], msg: 'dueDate must not be before startDate', type: 'value_error' }] },
      1,
      0,
    ])
    expect(await cost(() => other.admin.api.patch(path, { startDate: '2026-01-01' }), 404)).toEqual(ONE)
    expect(await cost(() => org.admin.api.patch(path, {}), 200)).toEqual(ONE)
    const stored = await db
      .selectFrom('assignments')
      .select(['role', 'due_date', 'end_date', 'start_date'])
      .where('id', '=', assignment.id)
      .execute()
    expect(stored).toEqual([{ role: 'Bosun', start_date: '2026-03-01', due_date: '2026-04-01', end_date: '2026-09-02' }])
    expect(await eventsOf(assignment.id)).toEqual([
      { type: 'assignment.created', data: assignment },
      { type: 'assignment.updated', data: { changes: { dueDate: ['2026-03-15', '2026-04-01'] } } },
      { type: 'assignment.updated', data: { changes: { role: ['Cook', 'Bosun'], endDate: ['2026-09-01', '2026-09-02'] } } },
    ])
  })
})

describe('courses', () => {
  const courses = '/api/v1/courses/'
  const newCourse = () =>
    org.admin.api.post(courses, { organization_id: org.id, s3_path: 'courses/fire', launch_file: 'index.html', title: 'Fire' })

  it('create and update are one statement each, with their event', async () => {
    counter.reset()
    const created = await newCourse()
    expect([created.status, counter.statements, counter.transactions]).toEqual([201, 1, 0])
    const course = created.body
    const path = `${courses}${course.id}`
    counter.reset()
    const updated = await org.admin.api.patch(path, { title: 'Fire at sea', launch_file: 'index.html' })
    expect([updated.status, updated.body.title, counter.statements, counter.transactions]).toEqual([200, 'Fire at sea', 1, 0])
    expect(await cost(() => org.admin.api.patch(path, { title: 'Fire at sea' }), 200)).toEqual(ONE)
    expect(await eventsOf(course.id)).toEqual([
      { type: 'course.created', data: course },
      { type: 'course.updated', data: { changes: { title: ['Fire', 'Fire at sea'] } } },
    ])
    expect(await cost(() => other.admin.api.patch(path, { title: 'Theirs' }), 404)).toEqual(ONE)
    expect((await org.admin.api.get(path)).body.title).toBe('Fire at sea')
  })

  it('delete locks the course, then checks the registrations and deletes in one statement', async () => {
    const course = (await newCourse()).body
    const path = `${courses}${course.id}`
    expect(await cost(() => other.admin.api.delete(path), 404)).toEqual({ statements: 1, transactions: 1 })
    // A registration with an attempt keeps the course.
    const { registrationId } = await enroll(db, org.id, org.crew.id, { courseId: course.id })
    await db.updateTable('registrations').set({ attempt_count: 1 }).where('id', '=', registrationId).execute()
    expect(await cost(() => org.admin.api.delete(path), 409)).toEqual({ statements: 2, transactions: 1 })
    expect(await eventsOf(course.id)).toEqual([{ type: 'course.created', data: course }])
    await db.updateTable('registrations').set({ attempt_count: 0 }).where('id', '=', registrationId).execute()
    expect(await cost(() => org.admin.api.delete(path), 204)).toEqual({ statements: 2, transactions: 1 })
    expect(await eventsOf(course.id)).toEqual([
      { type: 'course.created', data: course },
      { type: 'course.deleted', data: course },
    ])
    expect(await db.selectFrom('registrations').select('id').where('id', '=', registrationId).execute()).toEqual([])
  })
})

describe('curriculums', () => {
  const curriculums = '/api/v1/learn/curriculums'

  it('create is one statement; update and delete lock the curriculum, then write in one statement', async () => {
    counter.reset()
    const created = await org.admin.api.post(curriculums, { title: 'Deck' })
    expect([created.status, counter.statements, counter.transactions]).toEqual([201, 1, 0])
    const curriculum = created.body
    const path = `${curriculums}/${curriculum.id}`
    const courseId = await insertCourse(db, org.id, 'Knots')
    const withCourse = (await org.admin.api.post(`${path}/courses?course_id=${courseId}`)).body
    expect(withCourse.courses).toEqual([{ courseId, title: 'Knots' }])
    counter.reset()
    const updated = await org.admin.api.patch(path, { description: 'For deck crew', title: 'Deck' })
    expect([updated.status, updated.body, counter.statements, counter.transactions]).toEqual([
      200,
      { ...withCourse, description: 'For deck crew' },
      2,
      1,
    ])
    expect(await cost(() => org.admin.api.delete(path), 204)).toEqual({ statements: 2, transactions: 1 })
    const events = await eventsOf(curriculum.id)
    expect([events[0], ...events.slice(2)]).toEqual([
      { type: 'curriculum.created', data: curriculum },
      { type: 'curriculum.updated', data: { changes: { description: ['', 'For deck crew'] } } },
      { type: 'curriculum.deleted', data: updated.body },
    ])
    expect(events[1].type).toBe('curriculum.updated')
  })

  it("another organization's curriculum is a 404 after the lock finds nothing, writing nothing", async () => {
    const curriculum = (await org.admin.api.post(curriculums, { title: 'Engine' })).body
    const path = `${curriculums}/${curriculum.id}`
    expect(await cost(() => other.admin.api.patch(path, { title: 'Theirs' }), 404)).toEqual({ statements: 1, transactions: 1 })
    expect(await cost(() => other.admin.api.delete(path), 404)).toEqual({ statements: 1, transactions: 1 })
    expect(await cost(() => org.admin.api.patch(path, {}), 200)).toEqual({ statements: 1, transactions: 0 })
    expect((await org.admin.api.get(path)).body).toEqual(curriculum)
    expect(await eventsOf(curriculum.id)).toEqual([{ type: 'curriculum.created', data: curriculum }])
  })
})

describe('users', () => {
  const users = '/api/v1/shared/users'

  it('create, update and suspend are one statement each, with their events', async () => {
    counter.reset()
    const created = await org.admin.api.post(users, {
      email: `pending-${uuidv7()}@example.test`,
      firstName: 'Ada',
      lastName: 'Pike',
      role: 'crew',
    })
    expect([created.status, created.body.state, counter.statements, counter.transactions]).toEqual([201, 'pending', 1, 0])
    const user = created.body
    const path = `${users}/${user.id}`
    // A password lets the pending user log in: the state moves by the same statement's rule.
    counter.reset()
    const updated = await org.admin.api.patch(path, { firstName: 'Ada', lastName: 'Lake', password: 'a long new password' })
    expect([updated.status, updated.body.state, counter.statements, counter.transactions]).toEqual([200, 'active', 1, 0])
    expect(await cost(() => org.admin.api.delete(path), 204)).toEqual(ONE)
    // Suspended again: nothing changes, no event.
    expect(await cost(() => org.admin.api.delete(path), 204)).toEqual(ONE)
    expect(await cost(() => org.admin.api.patch(path, { state: 'active' }), 200)).toEqual(ONE)
    expect(await eventsOf(user.id)).toEqual([
      { type: 'user.created', data: user },
      { type: 'user.updated', data: { changes: { lastName: ['Pike', 'Lake'] }, passwordSet: true } },
      { type: 'user.updated', data: { changes: { state: ['pending', 'active'] } } },
      { type: 'user.suspended', data: { changes: { state: ['active', 'suspended'] } } },
      { type: 'user.restored', data: { changes: { state: ['suspended', 'active'] } } },
    ])
  })

  it("another organization's user and a taken e-mail are refused, writing nothing", async () => {
    const user = (await org.admin.api.post(users, { email: `u-${uuidv7()}@example.test`, firstName: 'Bo', lastName: 'Lund', role: 'crew' }))
      .body
    const path = `${users}/${user.id}`
    expect(await cost(() => other.admin.api.patch(path, { firstName: 'Theirs' }), 404)).toEqual(ONE)
    expect(await cost(() => other.admin.api.delete(path), 404)).toEqual(ONE)
    expect(await cost(() => org.admin.api.patch(path, { email: org.crew.email }), 409)).toEqual(REFUSED)
    const copy = { email: user.email, firstName: 'Copy', lastName: 'Cat', role: 'crew' }
    expect(await cost(() => org.admin.api.post(users, copy), 409)).toEqual(REFUSED)
    expect((await org.admin.api.get(path)).body).toEqual(user)
    expect(await eventsOf(user.id)).toEqual([{ type: 'user.created', data: user }])
    expect(await db.selectFrom('events').select('id').where(sql`data->>'firstName'`, '=', 'Copy').execute()).toEqual([])
  })
})

describe.skipIf(!process.env.TEST_DATABASE_URL)('a concurrent change (PostgreSQL)', () => {
  it('PATCH assignment checks the dates sent against the stored ones committed while it waited for the row', async () => {
    const ship = (await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Five', imoNumber: nextImo() })).body
    const body = { userId: org.crew.id, shipId: ship.id, role: 'Cook', startDate: '2026-03-01' }
    const assignment = (await org.admin.api.post('/api/v1/assignments/', body)).body
    let patched: ReturnType<typeof org.admin.api.patch> | undefined
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('assignments').set({ start_date: '2026-05-01' }).where('id', '=', assignment.id).execute()
      patched = org.admin.api.patch(`/api/v1/assignments/${assignment.id}`, { dueDate: '2026-04-01' })
      await rowLockQueued(trx, db, { table: 'assignments', column: 'id', id: assignment.id }, 1)
    })
    const res = await patched!
    expect([res.status, res.body]).toEqual([
      422,
      { detail: [{ loc: ['body', 'dueDate'], msg: 'dueDate must not be before startDate', type: 'value_error' }] },
    ])
    const stored = await db.selectFrom('assignments').select(['start_date', 'due_date']).where('id', '=', assignment.id).execute()
    expect(stored).toEqual([{ start_date: '2026-05-01', due_date: null }])
  })
})
