import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { TestApp } from '../../../app.js'
import type { TestOrg, TestUser } from '../../../factories.js'
import { addDays, todayUtc } from '../../../../src/lib/dates.js'
import { createAssignment, createShip, expectedAssignment, setupTwoOrgs, type TestShip } from '../../../fixtures/assignments.js'

// DECISIONS §4: a user holds at most one *active* assignment per ship (endDate null or ≥ today, UTC).
// An ended one never blocks a new contract on the same ship.

let t: TestApp
let org: TestOrg
setupTwoOrgs((env) => ({ t, org } = env))

const today = todayUtc()
const yesterday = addDays(today, -1)
const CONFLICT = { detail: 'This user already has an active assignment on this ship' }
const post = (user: TestUser, ship: TestShip, fields: object = {}) =>
  org.admin.api.post('/api/v1/assignments', { userId: user.id, shipId: ship.id, role: 'Bosun', ...fields })
const patch = (id: string, body: object) => org.admin.api.patch(`/api/v1/assignments/${id}`, body)
const read = async (id: string) => (await org.admin.api.get(`/api/v1/assignments/${id}`)).body
/** The user's assignments on the ship as the database has them: [end_date, is active]. */
const stored = async (user: TestUser, ship: TestShip) => {
  const { rows } = await sql<{ end_date: string | null; active: boolean }>`
    select end_date::text, (end_date is null or end_date >= (now() at time zone 'utc')::date) as active from assignments
    where user_id = ${user.id} and ship_id = ${ship.id} order by created_at, id`.execute(t.database.db)
  return rows.map((r) => [r.end_date, r.active])
}
/** A crew member with an ended assignment on a ship, and that assignment. */
const signedOff = async () => {
  const [user, ship] = [await org.addUser('crew'), await createShip(org)]
  return { user, ship, ended: await createAssignment(org, user, ship, { startDate: '2025-01-01', endDate: yesterday }) }
}

describe('one active assignment per user and ship: create', () => {
  it('lets crew rotate off and back on the same ship: both contracts are kept and listed', async () => {
    const [user, ship] = [await org.addUser('crew'), await createShip(org)]
    const first = await createAssignment(org, user, ship, { startDate: '2025-01-01' })
    expect((await patch(first.id, { endDate: yesterday })).body.isActive).toBe(false)
    const again = await post(user, ship, { role: 'Cook', startDate: today })
    expect(again.status).toBe(201)
    expect(again.body).toEqual(expectedAssignment(user, ship, { role: 'Cook', startDate: today }))
    const list = await org.admin.api.get(`/api/v1/assignments?user_id=${user.id}&ship_id=${ship.id}`)
    expect(list.body.items.map((a: { id: string; isActive: boolean }) => [a.id, a.isActive])).toEqual([
      [again.body.id, true],
      [first.id, false],
    ])
    const active = await org.admin.api.get(`/api/v1/assignments?user_id=${user.id}&is_active=true`)
    expect(active.body.items.map((a: { id: string }) => a.id)).toEqual([again.body.id])
    expect(await stored(user, ship)).toEqual([
      [yesterday, false],
      [null, true],
    ])
  })

  it('refuses a second active assignment (409) and writes nothing; an ended one may still be recorded', async () => {
    const [user, ship] = [await org.addUser('crew'), await createShip(org)]
    await createAssignment(org, user, ship, { endDate: today })
    for (const endDate of [null, today, addDays(today, 30)]) {
      const res = await post(user, ship, { endDate })
      expect([endDate, res.status, res.body]).toEqual([endDate, 409, CONFLICT])
    }
    expect(await stored(user, ship)).toEqual([[today, true]])
    // A past contract entered afterwards is not a second active one.
    const history = await post(user, ship, { startDate: '2024-01-01', endDate: '2024-06-30' })
    expect([history.status, history.body.isActive]).toEqual([201, false])
    // Another ship, or another user on this ship, is unaffected.
    expect((await post(user, await createShip(org))).status).toBe(201)
    expect((await post(await org.addUser('crew'), ship)).status).toBe(201)
  })

  it('lets only one of two concurrent creates for the same user and ship succeed', async () => {
    const [user, ship] = [await org.addUser('crew'), await createShip(org)]
    const replies = await Promise.all([post(user, ship), post(user, ship, { role: 'Cook' })])
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409])
    expect(await stored(user, ship)).toEqual([[null, true]])
  })
})

describe('one active assignment per user and ship: PATCH', () => {
  it('refuses an endDate that would reactivate an ended assignment while another is active (409, unchanged)', async () => {
    const { user, ship, ended } = await signedOff()
    await createAssignment(org, user, ship)
    for (const endDate of [null, today, addDays(today, 90)]) {
      const res = await patch(ended.id, { endDate, role: 'Cook' })
      expect([endDate, res.status, res.body]).toEqual([endDate, 409, CONFLICT])
    }
    expect(await read(ended.id)).toEqual(ended)
    // Staying ended is fine.
    const earlier = await patch(ended.id, { endDate: addDays(today, -10) })
    expect([earlier.status, earlier.body.isActive]).toEqual([200, false])
  })

  it('reactivates an ended assignment when no other is active', async () => {
    const { user, ship, ended } = await signedOff()
    const res = await patch(ended.id, { endDate: null })
    expect([res.status, res.body]).toEqual([200, { ...ended, endDate: null, isActive: true }])
    expect(await stored(user, ship)).toEqual([[null, true]])
  })

  it('never blocks the active assignment on its own row', async () => {
    const [user, ship] = [await org.addUser('crew'), await createShip(org)]
    await createAssignment(org, user, ship, { startDate: '2025-01-01', endDate: '2025-02-01' })
    const active = await createAssignment(org, user, ship, { startDate: '2025-06-01' })
    for (const body of [{ endDate: addDays(today, 60) }, { endDate: today }, { endDate: null, role: 'Cook' }]) {
      const res = await patch(active.id, body)
      expect([body, res.status, res.body.isActive]).toEqual([body, 200, true])
    }
    expect(await read(active.id)).toEqual({ ...active, role: 'Cook' })
  })

  it('lets only one of a concurrent create and reactivation on the same ship succeed', async () => {
    const { user, ship, ended } = await signedOff()
    const [created, reactivated] = await Promise.all([post(user, ship), patch(ended.id, { endDate: null })])
    expect([
      [201, 409],
      [409, 200],
    ]).toContainEqual([created.status, reactivated.status])
    expect((await stored(user, ship)).filter(([, active]) => active)).toHaveLength(1)
  })
})

describe('one active assignment per user and ship: bulk', () => {
  const bulkCreate = (body: object) => org.admin.api.post('/api/v1/learn/assignments/bulk/create', body)
  const bulkUpdate = (body: object) => org.admin.api.post('/api/v1/learn/assignments/bulk/update', body)

  it('bulk create skips only users with an active assignment on the ship', async () => {
    const ship = await createShip(org)
    const [holder, rotated, fresh, elsewhere] = [
      await org.addUser('crew'),
      await org.addUser('crew'),
      await org.addUser('crew'),
      await org.addUser('crew'),
    ]
    await createAssignment(org, holder, ship, { endDate: today })
    await createAssignment(org, rotated, ship, { endDate: yesterday })
    await createAssignment(org, elsewhere, await createShip(org))
    const res = await bulkCreate({ userIds: [holder.id, rotated.id, fresh.id, elsewhere.id], shipId: ship.id, role: 'Cook' })
    expect(res.status).toBe(200)
    const item = (user: TestUser) => expectedAssignment(user, ship, { role: 'Cook' })
    expect(res.body).toEqual({ createdCount: 3, assignments: [item(rotated), item(fresh), item(elsewhere)], skippedUserIds: [holder.id] })
    expect(await stored(holder, ship)).toEqual([[today, true]])
    expect(await stored(rotated, ship)).toEqual([
      [yesterday, false],
      [null, true],
    ])
  })

  it('bulk create of ended assignments (history) skips no one', async () => {
    const [holder, ship] = [await org.addUser('crew'), await createShip(org)]
    await createAssignment(org, holder, ship)
    const res = await bulkCreate({ userIds: [holder.id], shipId: ship.id, role: 'Cook', startDate: '2024-01-01', endDate: '2024-03-01' })
    expect([res.body.createdCount, res.body.skippedUserIds]).toEqual([1, []])
    expect(await stored(holder, ship)).toEqual([
      [null, true],
      ['2024-03-01', false],
    ])
  })

  it('bulk update leaves an assignment it would reactivate as a second active one unchanged, with a line', async () => {
    const { user, ship, ended: blocked } = await signedOff()
    await createAssignment(org, user, ship)
    const twice = await signedOff()
    const secondEnded = await createAssignment(org, twice.user, twice.ship, { startDate: '2025-03-01', endDate: addDays(today, -2) })
    const res = await bulkUpdate({ assignmentIds: [blocked.id, twice.ended.id, secondEnded.id], clearFields: ['endDate'] })
    expect(res.status).toBe(200)
    const line = (id: string) => `${id}: user already has an active assignment on this ship`
    expect(res.body).toEqual({
      updatedCount: 1,
      assignments: [expect.objectContaining({ id: twice.ended.id, endDate: null, isActive: true })],
      failedAssignmentIds: [blocked.id, secondEnded.id],
      errors: [line(blocked.id), line(secondEnded.id)],
    })
    expect(await read(blocked.id)).toEqual(blocked)
    expect(await read(secondEnded.id)).toEqual(secondEnded)
    expect(await stored(twice.user, twice.ship)).toEqual([
      [null, true],
      [addDays(today, -2), false],
    ])
  })
})

describe('one active assignment per user and ship: in the database', () => {
  const insert = (db: typeof t.database.db, user: TestUser, ship: TestShip) =>
    db
      .insertInto('assignments')
      .values({ id: crypto.randomUUID(), organization_id: org.id, user_id: user.id, ship_id: ship.id, role: 'Bosun' })
      .execute()

  it('refuses a second active row written by plain SQL, also from two concurrent transactions', async () => {
    const [user, ship] = [await org.addUser('crew'), await createShip(org)]
    const db = t.database.db
    // The first transaction holds its row uncommitted while the second writes the same pair.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let wrote = () => {}
    const written = new Promise<void>((resolve) => (wrote = resolve))
    const first = db.transaction().execute(async (trx) => {
      await insert(trx, user, ship)
      wrote()
      await held
    })
    await written
    const second = db.transaction().execute((trx) => insert(trx, user, ship))
    const secondSettled = second.then(
      () => 'committed',
      (error) => error.code,
    )
    await new Promise((resolve) => setTimeout(resolve, 200))
    release()
    await first
    expect(await secondSettled).toBe('23505')
    expect(await stored(user, ship)).toEqual([[null, true]])
    await expect(insert(db, user, ship)).rejects.toMatchObject({ code: '23505' })
  })
})
