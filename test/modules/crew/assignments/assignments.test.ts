import { describe, expect, it } from 'vitest'
import type { TestApp } from '../../../app.js'
import { onOneUtcDay } from '../../../clock.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { addDays } from '../../../../src/lib/dates.js'
import { createAssignment, createShip, expectedAssignment, NIL, setupTwoOrgs } from '../../../fixtures/assignments.js'

let t: TestApp
let org: TestOrg
let other: TestOrg
setupTwoOrgs((env) => ({ t, org, other } = env))

describe('assignments: create', () => {
  it('creates at both paths with the single shape (201) and reads it back', async () => {
    const ship = await createShip(org)
    const body = {
      userId: org.crew.id,
      shipId: ship.id,
      role: 'Chief Engineer',
      startDate: '2026-01-10',
      dueDate: '2026-02-01',
      endDate: null,
    }
    const res = await org.officeAdmin.api.post('/api/v1/learn/assignments/', body)
    expect(res.status).toBe(201)
    const expected = expectedAssignment(org.crew, ship, { role: 'Chief Engineer', startDate: '2026-01-10', dueDate: '2026-02-01' })
    expect(res.body).toEqual(expected)
    expect((await org.admin.api.get(`/api/v1/assignments/${res.body.id}`)).body).toEqual(res.body)

    const second = await org.admin.api.post('/api/v1/assignments', { userId: org.officeEmployee.id, shipId: ship.id, role: 'Bosun' })
    expect(second.status).toBe(201)
    expect(second.body).toEqual(expectedAssignment(org.officeEmployee, ship, {}))
  })

  it('computes isActive from endDate against today (UTC)', () =>
    onOneUtcDay(async (today) => {
      const ship = await createShip(org)
      const cases: [string | null, boolean][] = [
        [addDays(today, -1), false],
        [today, true],
        [addDays(today, 1), true],
        [null, true],
      ]
      for (const [endDate, isActive] of cases) {
        const user = await org.addUser('crew')
        const created = await createAssignment(org, user, ship, { endDate })
        expect([created.endDate, created.isActive]).toEqual([endDate, isActive])
      }
    }))

  it('refuses users and ships the caller cannot see: 422 at each field', async () => {
    const theirShip = await createShip(other)
    const res = await org.admin.api.post('/api/v1/assignments', { userId: other.crew.id, shipId: theirShip.id, role: 'Bosun' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      detail: [
        { loc: ['body', 'userId'], msg: 'User not found', type: 'value_error' },
        { loc: ['body', 'shipId'], msg: 'Ship not found', type: 'value_error' },
      ],
    })
    const missing = await org.admin.api.post('/api/v1/assignments', { userId: NIL, shipId: (await createShip(org)).id, role: 'Bosun' })
    expect(missing.body.detail).toEqual([{ loc: ['body', 'userId'], msg: 'User not found', type: 'value_error' }])
  })

  it('validates the body: types, lengths and the date order (loc = the later date)', async () => {
    const ship = await createShip(org)
    const bad = await org.admin.api.post('/api/v1/assignments', {
      userId: 'nope',
      shipId: ship.id,
      role: 'x'.repeat(101),
      startDate: '2026-13-01',
    })
    expect(bad.status).toBe(422)
    expect(bad.body.detail).toEqual([
      { loc: ['body', 'userId'], msg: expect.any(String), type: 'uuid_parsing' },
      { loc: ['body', 'role'], msg: expect.any(String), type: 'string_too_long' },
      { loc: ['body', 'startDate'], msg: expect.any(String), type: 'date_parsing' },
    ])
    const missing = await org.admin.api.post('/api/v1/assignments', { userId: org.crew.id, shipId: ship.id, role: 5 })
    expect(missing.body.detail).toEqual([{ loc: ['body', 'role'], msg: expect.any(String), type: 'string_type' }])
    const order = await org.admin.api.post('/api/v1/assignments', {
      userId: org.crew.id,
      shipId: ship.id,
      role: 'Bosun',
      startDate: '2026-05-01',
      dueDate: '2026-04-01',
      endDate: '2026-04-30',
    })
    expect(order.status).toBe(422)
    expect(order.body.detail).toEqual([
      { loc: ['body', 'dueDate'], msg: 'dueDate must not be before startDate', type: 'value_error' },
      { loc: ['body', 'endDate'], msg: 'endDate must not be before startDate', type: 'value_error' },
    ])
    const sameDay = {
      userId: org.crew.id,
      shipId: ship.id,
      role: 'Bosun',
      startDate: '2026-05-01',
      dueDate: '2026-05-01',
      endDate: '2026-05-01',
    }
    expect((await org.admin.api.post('/api/v1/assignments', sameDay)).status).toBe(201)
  })

  it('refuses a second active assignment of a user to the same ship (409; more in assignments.active.test.ts)', async () => {
    const ship = await createShip(org)
    const user = await org.addUser('crew')
    await createAssignment(org, user, ship)
    const again = await org.admin.api.post('/api/v1/assignments', { userId: user.id, shipId: ship.id, role: 'Cook' })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ detail: 'This user already has an active assignment on this ship' })
  })

  it('lets only admins and office admins create (403 for others, 403 without the learn product)', async () => {
    const ship = await createShip(org)
    const body = { userId: org.crew.id, shipId: ship.id, role: 'Bosun' }
    for (const user of [org.officeEmployee, org.crew]) {
      expect((await user.api.post('/api/v1/assignments', body)).status).toBe(403)
      expect((await user.api.post('/api/v1/learn/assignments', body)).status).toBe(403)
    }
    const crewOnly = await createOrg(t.app, t.database.db, { products: ['crew'] })
    expect((await crewOnly.admin.api.get('/api/v1/assignments')).status).toBe(403)
    expect((await crewOnly.admin.api.get('/api/v1/learn/assignments')).status).toBe(403)
  })
})

describe('assignments: get one', () => {
  it('shows managers any assignment of the organization and others only their own (404 otherwise)', async () => {
    const ship = await createShip(org)
    const crews = await createAssignment(org, org.crew, ship)
    const employees = await createAssignment(org, org.officeEmployee, ship)
    const theirs = await createAssignment(other, other.crew, await createShip(other))
    for (const path of ['/api/v1/assignments', '/api/v1/learn/assignments']) {
      for (const manager of [org.admin, org.officeAdmin]) {
        expect((await manager.api.get(`${path}/${crews.id}`)).body).toEqual(crews)
        expect((await manager.api.get(`${path}/${theirs.id}`)).status).toBe(404)
      }
      expect((await org.crew.api.get(`${path}/${crews.id}`)).body).toEqual(crews)
      expect((await org.officeEmployee.api.get(`${path}/${employees.id}`)).body).toEqual(employees)
      const hidden = await org.crew.api.get(`${path}/${employees.id}`)
      expect(hidden.status).toBe(404)
      expect(hidden.body).toEqual({ detail: 'Assignment not found' })
      expect((await org.officeEmployee.api.get(`${path}/${crews.id}`)).status).toBe(404)
      expect((await org.admin.api.get(`${path}/${NIL}`)).body).toEqual({ detail: 'Assignment not found' })
      const malformed = await org.admin.api.get(`${path}/not-a-uuid`)
      expect(malformed.status).toBe(422)
      expect(malformed.body.detail).toEqual([{ loc: ['path', 'assignment_id'], msg: expect.any(String), type: 'uuid_parsing' }])
    }
  })
})
