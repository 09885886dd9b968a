import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../src/db/database.js'
import { createOrg, nextImo, type TestOrg } from './factories.js'
import { type StatementCounter, statementCounter } from './statement-counter.js'

// The single-item writes of the organization's data (ships, users, courses, curriculums,
// assignments): what each costs in round trips, and that the statement wrote the event expected.

let counter: StatementCounter
let db: Db
let org: TestOrg
let other: TestOrg
beforeAll(async () => {
  counter = await statementCounter()
  ;({ db, org } = counter)
  other = await createOrg(counter.app, db)
  // Its admin's first request looks the caller up; later ones find it cached.
  await other.admin.api.get('/api/v1/users/me')
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
