import { describe, expect, it } from 'vitest'
import { type TestApp, useTestApp } from '../../../app.js'
import { type TestUser, useOrg } from '../../../factories.js'
import { addAssignment, addShip, seaService } from '../../../fixtures/sea-service.js'

const t = useTestApp()
const org = useOrg(t)

// Contracts that ended before the real today (the write paths compare with it).
const ENDED = { startDate: '2026-01-01', endDate: '2026-06-30' }

async function experienceOf(user: TestUser, caller: TestUser = user) {
  const res = await caller.api.get(`/api/v1/crew/users/${user.id}/experience`)
  expect(res.status).toBe(200)
  return res.body as Record<string, any>[]
}

async function eventsOf(app: TestApp, targetId: string) {
  return app.database.db
    .selectFrom('events')
    .select(['type', 'data', 'actor_user_id', 'request_id'])
    .where('target_id', '=', targetId)
    .orderBy('id')
    .execute()
}

describe('sea service from contracts (DECISIONS §14): the write paths', () => {
  it('a contract created already ended shows up at once, verified, with its event equal to what GET returns', async () => {
    const user = await org.addUser('crew')
    const ship = await addShip(org, { shipType: 'bulk_carrier' })
    const assignmentId = await addAssignment(org, user, ship.id, { role: 'Second Officer', ...ENDED })
    const [row] = await experienceOf(user)
    const { name } = await t.database.db.selectFrom('organizations').select('name').where('id', '=', org.id).executeTakeFirstOrThrow()
    expect(row).toEqual({
      id: expect.any(String),
      companyName: name,
      position: 'Second Officer',
      shipType: 'bulk_carrier',
      startDate: '2026-01-01',
      endDate: '2026-06-30',
      notes: null,
      source: 'assignment',
      assignmentId,
      verification: {
        targetType: 'experience',
        targetId: row.id,
        status: 'verified',
        rejectionReason: null,
        reviewedAt: expect.any(String),
      },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    expect(await eventsOf(t, row.id)).toEqual([
      { type: 'experience.created', data: row, actor_user_id: org.admin.id, request_id: expect.any(String) },
    ])
    const summary = await seaService(user, user.id, '2026-07-01')
    expect([summary.totalDays, summary.periods[0]]).toEqual([
      181,
      {
        source: 'assignment',
        id: row.id,
        shipName: ship.name,
        shipType: 'bulk_carrier',
        role: 'Second Officer',
        startDate: '2026-01-01',
        endDate: '2026-06-30',
        days: 181,
        countedDays: 181,
      },
    ])
    // A running contract and one without a start date make none.
    const running = await org.addUser('crew')
    await addAssignment(org, running, ship.id, { role: 'Cook', startDate: '2026-01-01' })
    await addAssignment(org, running, (await addShip(org)).id, { role: 'Cook', endDate: '2026-02-01' })
    expect(await experienceOf(running)).toEqual([])
  })

  it('keeps the row in step with PATCHes (history and events record it) and removes it when the contract is reopened', async () => {
    const user = await org.addUser('crew')
    const assignmentId = await addAssignment(org, user, (await addShip(org)).id, { role: 'Bosun', ...ENDED })
    const [made] = await experienceOf(user)
    const url = `/api/v1/assignments/${assignmentId}`
    expect((await org.admin.api.patch(url, { role: 'Able Seaman', endDate: '2026-05-31' })).status).toBe(200)
    const [kept] = await experienceOf(user)
    expect(kept).toMatchObject({ id: made.id, position: 'Able Seaman', endDate: '2026-05-31', verification: { status: 'verified' } })
    expect((await org.admin.api.patch(url, { role: 'Able Seaman' })).status).toBe(200)
    const history = await t.database.db
      .selectFrom('verification_events')
      .select(['from_status', 'to_status', 'action'])
      .where('target_id', '=', made.id)
      .orderBy('id')
      .execute()
    expect(history).toEqual([
      { from_status: null, to_status: 'verified', action: 'create' },
      { from_status: 'verified', to_status: 'verified', action: 'contract_changed' },
    ])
    expect((await eventsOf(t, made.id)).map((e) => [e.type, e.type === 'experience.updated' ? e.data : null])).toEqual([
      ['experience.created', null],
      [
        'experience.updated',
        { changes: { position: ['Bosun', 'Able Seaman'], endDate: ['2026-06-30', '2026-05-31'], verification: expect.any(Array) } },
      ],
    ])
    expect((await org.admin.api.patch(url, { endDate: null })).status).toBe(200)
    expect(await experienceOf(user)).toEqual([])
    expect((await eventsOf(t, made.id)).at(-1)).toMatchObject({
      type: 'experience.deleted',
      data: { id: made.id, position: 'Able Seaman' },
    })
  })

  it('bulk create and bulk update that end contracts make one row per assignment', async () => {
    const [a, b] = [await org.addUser('crew'), await org.addUser('crew')]
    const ship = await addShip(org, { shipType: 'tug' })
    const created = await org.admin.api.post('/api/v1/learn/assignments/bulk/create', {
      userIds: [a.id],
      shipId: ship.id,
      role: 'Master',
      ...ENDED,
    })
    expect(created.status).toBe(200)
    const running = await addAssignment(org, b, ship.id, { role: 'Mate', startDate: '2026-02-01' })
    const updated = await org.admin.api.post('/api/v1/learn/assignments/bulk/update', { assignmentIds: [running], endDate: '2026-03-02' })
    expect(updated.status).toBe(200)
    expect((await experienceOf(a, org.admin)).map((e) => [e.position, e.shipType, e.assignmentId])).toEqual([
      ['Master', 'tug', created.body.assignments[0].id],
    ])
    expect((await experienceOf(b, org.admin)).map((e) => [e.position, e.startDate, e.endDate])).toEqual([
      ['Mate', '2026-02-01', '2026-03-02'],
    ])
  })
})
