import { describe, expect, it } from 'vitest'
import { onOneUtcDay } from '../../../clock.js'
import type { TestOrg } from '../../../factories.js'
import { addDays } from '../../../../src/lib/dates.js'
import { createAssignment, createShip, NIL, setupTwoOrgs } from '../../../fixtures/assignments.js'

let org: TestOrg
let other: TestOrg
setupTwoOrgs((env) => ({ org, other } = env))

const DATES = { startDate: '2026-03-01', dueDate: '2026-03-15', endDate: '2026-09-01' }
const fresh = async (fields = DATES) => createAssignment(org, await org.addUser('crew'), await createShip(org), fields)
const patch = (id: string, body: unknown, user = org.admin) => user.api.patch(`/api/v1/assignments/${id}`, body)
const dateError = (field: string, rule: 'dueDate' | 'endDate') => ({
  loc: ['body', field],
  msg: `${rule} must not be before startDate`,
  type: 'value_error',
})

describe('assignments: PATCH', () => {
  it('leaves omitted fields unchanged and clears dates sent as null', async () => {
    const a = await fresh()
    const res = await patch(a.id, { role: 'Second Officer', dueDate: null })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...a, role: 'Second Officer', dueDate: null })
    expect((await org.admin.api.get(`/api/v1/assignments/${a.id}`)).body).toEqual(res.body)
    const cleared = await patch(a.id, { startDate: null, endDate: null })
    expect(cleared.body).toEqual({ ...a, role: 'Second Officer', startDate: null, dueDate: null, endDate: null, isActive: true })
  })

  it('answers {} with the unchanged assignment (200)', async () => {
    const a = await fresh()
    const res = await patch(a.id, {})
    expect(res.status).toBe(200)
    expect(res.body).toEqual(a)
  })

  it('recomputes isActive when endDate changes', () =>
    onOneUtcDay(async (today) => {
      const a = await fresh({ startDate: addDays(today, -30), dueDate: addDays(today, -20), endDate: addDays(today, 5) })
      expect((await patch(a.id, { endDate: addDays(today, -1) })).body.isActive).toBe(false)
      expect((await patch(a.id, { endDate: today })).body.isActive).toBe(true)
    }))

  it('refuses role null or empty and malformed dates (422)', async () => {
    const a = await fresh()
    const res = await patch(a.id, { role: null, startDate: '01/03/2026', endDate: 7 })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      { loc: ['body', 'role'], msg: expect.any(String), type: 'string_type' },
      { loc: ['body', 'startDate'], msg: expect.any(String), type: 'date_parsing' },
      { loc: ['body', 'endDate'], msg: expect.any(String), type: 'string_type' },
    ])
    expect((await patch(a.id, { role: '' })).body.detail).toEqual([
      { loc: ['body', 'role'], msg: expect.any(String), type: 'string_too_short' },
    ])
    expect((await org.admin.api.get(`/api/v1/assignments/${a.id}`)).body).toEqual(a)
  })

  it('checks the date rules on the resulting row; loc is the field sent, the later one if both were', async () => {
    const a = await fresh()
    const cases: [Record<string, string | null>, object[]][] = [
      [{ dueDate: '2026-02-01' }, [dateError('dueDate', 'dueDate')]],
      [{ endDate: '2026-02-01' }, [dateError('endDate', 'endDate')]],
      [{ startDate: '2026-03-20' }, [dateError('startDate', 'dueDate')]],
      [{ startDate: '2026-10-01' }, [dateError('startDate', 'dueDate'), dateError('startDate', 'endDate')]],
      [{ startDate: '2026-04-01', dueDate: '2026-03-31' }, [dateError('dueDate', 'dueDate')]],
      [{ startDate: '2026-10-01', dueDate: null }, [dateError('startDate', 'endDate')]],
      [{ startDate: '2026-10-01', dueDate: null, endDate: '2026-09-30' }, [dateError('endDate', 'endDate')]],
    ]
    for (const [body, detail] of cases) {
      const res = await patch(a.id, body)
      expect([body, res.status, res.body]).toEqual([body, 422, { detail }])
    }
    expect((await org.admin.api.get(`/api/v1/assignments/${a.id}`)).body).toEqual(a)
    const ok = await patch(a.id, { startDate: '2026-10-01', dueDate: null, endDate: null })
    expect(ok.body).toEqual({ ...a, startDate: '2026-10-01', dueDate: null, endDate: null, isActive: true })
    expect((await patch(a.id, { dueDate: '2026-10-01', endDate: '2026-10-01' })).status).toBe(200)
  })

  it('lets admins and office admins patch; 403 for other roles; 404 for another organization or a missing id', async () => {
    const a = await fresh()
    expect((await patch(a.id, { role: 'Cook' }, org.officeAdmin)).body.role).toBe('Cook')
    for (const user of [org.officeEmployee, org.crew]) expect((await patch(a.id, { role: 'Steward' }, user)).status).toBe(403)
    const hidden = await patch(a.id, { role: 'Steward' }, other.admin)
    expect([hidden.status, hidden.body]).toEqual([404, { detail: 'Assignment not found' }])
    expect((await patch(NIL, {})).status).toBe(404)
    expect((await patch('nope', {})).body.detail).toEqual([
      { loc: ['path', 'assignment_id'], msg: expect.any(String), type: 'uuid_parsing' },
    ])
    expect((await org.admin.api.get(`/api/v1/assignments/${a.id}`)).body.role).toBe('Cook')
  })
})
