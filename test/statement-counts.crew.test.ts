import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../src/db/database.js'
import { createOrg, type TestOrg } from './factories.js'
import { type StatementCounter, statementCounter } from './statement-counter.js'

// Round trips of the single-item writes on a user's crew records: each is one statement, without a
// transaction, and a refused write (another organization's record, another crew member's) writes nothing.

let counter: StatementCounter
let db: Db
let org: TestOrg
let other: TestOrg
beforeAll(async () => {
  counter = await statementCounter()
  ;({ db, org } = counter)
  other = await createOrg(counter.app, db)
  // Callers are cached after their first request, as the counter's own are.
  await Promise.all([other.admin, other.crew].map((user) => user.api.get('/api/v1/users/me')))
})
afterAll(() => counter.app.close())

const ONE = { statements: 1, transactions: 0 }
const cost: StatementCounter['cost'] = (send, status) => counter.cost(send, status)
const eventsOf = (targetId: string) => counter.eventsOf(targetId)
/** The events of the organization of `type`: a refused write leaves their number as it was. */
const countEvents = async (type: string) =>
  (await db.selectFrom('events').select('id').where('organization_id', 'in', [org.id, other.id]).where('type', '=', type).execute()).length

describe('next of kin', () => {
  const list = (userId: string) => `/api/v1/crew/users/${userId}/next-of-kin`
  const item = (id: string) => `/api/v1/crew/next-of-kin/${id}`

  it('create, update and delete are one statement each, with their events', async () => {
    counter.reset()
    const created = await org.crew.api.post(list(org.crew.id), { relationship: 'spouse', fullName: 'Maria Santos' })
    expect([created.status, counter.statements, counter.transactions]).toEqual([201, 1, 0])
    const path = item(created.body.id)
    counter.reset()
    const patched = await org.crew.api.patch(path, { phone: '+63 1', fullName: 'Maria Santos' })
    expect([patched.status, counter.statements, counter.transactions]).toEqual([200, 1, 0])
    expect(patched.body).toEqual({ ...created.body, phone: '+63 1', updatedAt: expect.any(String) })
    expect(patched.body.updatedAt).not.toBe(created.body.updatedAt)
    // The same values again change nothing: the contact as it is, no new update time, no event.
    counter.reset()
    const same = await org.crew.api.patch(path, { phone: '+63 1' })
    expect([same.status, same.body, counter.statements]).toEqual([200, patched.body, 1])
    expect(await cost(() => org.crew.api.delete(path), 204)).toEqual(ONE)
    expect(await db.selectFrom('next_of_kin').select('id').where('id', '=', created.body.id).execute()).toEqual([])
    expect(await eventsOf(created.body.id)).toEqual([
      { type: 'next_of_kin.created', data: created.body },
      { type: 'next_of_kin.updated', data: { changes: { phone: [null, '+63 1'] } } },
      { type: 'next_of_kin.deleted', data: patched.body },
    ])
  })

  it("refuses another organization's user or contact, and a crew mate's, in one statement, writing nothing", async () => {
    const created = (await org.admin.api.post(list(org.crew.id), { relationship: 'father', fullName: 'Jose' })).body
    const before = await Promise.all(['created', 'updated', 'deleted'].map((verb) => countEvents(`next_of_kin.${verb}`)))
    expect(await cost(() => org.admin.api.post(list(other.crew.id), { relationship: 'x', fullName: 'y' }), 404)).toEqual(ONE)
    for (const caller of [other.admin, other.crew]) {
      expect(await cost(() => caller.api.patch(item(created.id), { fullName: 'Changed' }), 404)).toEqual(ONE)
      expect(await cost(() => caller.api.delete(item(created.id)), 404)).toEqual(ONE)
    }
    const mate = await org.addUser('crew')
    await mate.api.get('/api/v1/users/me')
    expect(await cost(() => mate.api.patch(item(created.id), { fullName: 'Changed' }), 404)).toEqual(ONE)
    expect(await cost(() => mate.api.delete(item(created.id)), 404)).toEqual(ONE)
    // A crew member naming another user is refused before any statement.
    expect(await cost(() => org.crew.api.post(list(mate.id), { relationship: 'x', fullName: 'y' }), 404)).toEqual({
      statements: 0,
      transactions: 0,
    })
    const stored = await db
      .selectFrom('next_of_kin')
      .select(['id', 'full_name'])
      .where('user_id', 'in', [other.crew.id, org.crew.id])
      .execute()
    expect(stored).toEqual([{ id: created.id, full_name: 'Jose' }])
    expect(await Promise.all(['created', 'updated', 'deleted'].map((verb) => countEvents(`next_of_kin.${verb}`)))).toEqual(before)
  })
})
