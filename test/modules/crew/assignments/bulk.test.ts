import { describe, expect, it } from 'vitest'
import type { TestOrg, TestUser } from '../../../factories.js'
import { addDays, todayUtc } from '../../../../src/lib/dates.js'
import { createAssignment, createShip, expectedAssignment, NIL, setupTwoOrgs } from '../../../fixtures/assignments.js'

let org: TestOrg
let other: TestOrg
setupTwoOrgs((env) => ({ org, other } = env))

const DATES = { startDate: '2026-03-01', dueDate: '2026-03-15', endDate: '2026-09-01' }
const fresh = async (fields: Record<string, string | null> = DATES) =>
  createAssignment(org, await org.addUser('crew'), await createShip(org), fields)
const read = async (id: string) => (await org.admin.api.get(`/api/v1/assignments/${id}`)).body
/** The bulk item: the single shape without dueDate. */
const bulkItem = ({ dueDate: _, ...item }: Record<string, unknown>) => item
const update = (body: unknown, path = '/api/v1/learn/assignments/bulk/update') => org.admin.api.post(path, body)

describe('bulk update', () => {
  it('updates the organization’s assignments and reports unknown and foreign ids as not found', async () => {
    const [a, b] = [await fresh(), await fresh()]
    const theirs = await createAssignment(other, other.crew, await createShip(other))
    const endDate = addDays(todayUtc(), 365)
    const res = await update({ assignmentIds: [a.id, NIL, b.id, theirs.id], role: 'Able Seaman', endDate })
    expect(res.status).toBe(200)
    const changed = { role: 'Able Seaman', endDate, isActive: true }
    expect(res.body).toEqual({
      updatedCount: 2,
      assignments: [bulkItem({ ...a, ...changed }), bulkItem({ ...b, ...changed })],
      failedAssignmentIds: [NIL, theirs.id],
      errors: [`${NIL}: not found`, `${theirs.id}: not found`],
    })
    expect(await read(a.id)).toEqual({ ...a, ...changed })
    expect((await other.admin.api.get(`/api/v1/assignments/${theirs.id}`)).body).toEqual(theirs)
  })

  it('counts an assignment that already has the values as updated', async () => {
    const [same, different] = [await fresh(), await fresh()]
    await update({ assignmentIds: [same.id], role: 'Cook' })
    const res = await update({ assignmentIds: [same.id, different.id], role: 'Cook', startDate: DATES.startDate })
    const cook = { role: 'Cook' }
    expect(res.body).toEqual({
      updatedCount: 2,
      assignments: [bulkItem({ ...same, ...cook }), bulkItem({ ...different, ...cook })],
      failedAssignmentIds: [],
      errors: [],
    })
    expect(await read(different.id)).toEqual({ ...different, ...cook })
  })

  it('leaves an assignment whose resulting dates break the rules unchanged, with a line per broken rule', async () => {
    const ok = await fresh({ startDate: '2026-01-01', dueDate: null, endDate: null })
    const ends = await fresh({ startDate: '2026-01-01', dueDate: null, endDate: '2026-04-01' })
    const due = await fresh({ startDate: '2026-01-01', dueDate: '2026-04-01', endDate: null })
    const both = await fresh({ startDate: '2026-01-01', dueDate: '2026-04-01', endDate: '2026-04-01' })
    const res = await update({ assignmentIds: [ok.id, ends.id, due.id, both.id], startDate: '2026-05-01' })
    expect(res.body).toEqual({
      updatedCount: 1,
      assignments: [bulkItem({ ...ok, startDate: '2026-05-01' })],
      failedAssignmentIds: [ends.id, due.id, both.id],
      errors: [
        `${ends.id}: startDate after endDate`,
        `${due.id}: startDate after dueDate`,
        `${both.id}: startDate after endDate`,
        `${both.id}: startDate after dueDate`,
      ],
    })
    for (const unchanged of [ends, due, both]) expect(await read(unchanged.id)).toEqual(unchanged)
  })

  it('clears the dates named in clearFields, which may make the rest valid', async () => {
    const a = await fresh()
    const res = await update(
      { assignmentIds: [a.id], startDate: '2026-10-01', clearFields: ['dueDate', 'endDate'] },
      '/api/v1/assignments/bulk/update',
    )
    expect(res.body).toEqual({
      updatedCount: 1,
      assignments: [bulkItem({ ...a, startDate: '2026-10-01', dueDate: null, endDate: null, isActive: true })],
      failedAssignmentIds: [],
      errors: [],
    })
    expect(await read(a.id)).toEqual({ ...a, startDate: '2026-10-01', dueDate: null, endDate: null, isActive: true })
  })

  it('sets dueDate, which the bulk item does not show but the assignment has', async () => {
    const a = await fresh()
    const res = await update({ assignmentIds: [a.id], dueDate: '2026-04-01' })
    expect(res.body.assignments).toEqual([bulkItem(a)])
    expect(Object.keys(res.body.assignments[0])).not.toContain('dueDate')
    expect(await read(a.id)).toEqual({ ...a, dueDate: '2026-04-01' })
  })

  it('validates the whole request first (422) and changes nothing', async () => {
    const a = await fresh()
    const cases: [unknown, object[]][] = [
      [{ assignmentIds: [a.id] }, [{ loc: ['body'], msg: expect.any(String), type: 'value_error' }]],
      [{ assignmentIds: [a.id], clearFields: [] }, [{ loc: ['body'], msg: expect.any(String), type: 'value_error' }]],
      [
        { assignmentIds: [a.id], endDate: '2026-12-01', clearFields: ['endDate'] },
        [{ loc: ['body', 'clearFields'], msg: expect.any(String), type: 'value_error' }],
      ],
      [{ assignmentIds: [a.id], clearFields: ['role'] }, [{ loc: ['body', 'clearFields', 0], msg: expect.any(String), type: 'enum' }]],
      [
        { assignmentIds: [a.id], clearFields: ['endDate', 'endDate'] },
        [{ loc: ['body', 'clearFields'], msg: expect.any(String), type: 'value_error' }],
      ],
      [{ assignmentIds: [], role: 'Cook' }, [{ loc: ['body', 'assignmentIds'], msg: expect.any(String), type: 'too_short' }]],
      [{ assignmentIds: [a.id, a.id], role: 'Cook' }, [{ loc: ['body', 'assignmentIds'], msg: expect.any(String), type: 'value_error' }]],
      [
        { assignmentIds: [a.id, a.id.toUpperCase()], role: 'Cook' },
        [{ loc: ['body', 'assignmentIds'], msg: expect.any(String), type: 'value_error' }],
      ],
      [
        { assignmentIds: [a.id, 'x'], role: 5, dueDate: null },
        [
          { loc: ['body', 'assignmentIds', 1], msg: expect.any(String), type: 'uuid_parsing' },
          { loc: ['body', 'role'], msg: expect.any(String), type: 'string_type' },
          { loc: ['body', 'dueDate'], msg: expect.any(String), type: 'string_type' },
        ],
      ],
      [{ role: 'Cook' }, [{ loc: ['body', 'assignmentIds'], msg: 'Field required', type: 'missing' }]],
    ]
    for (const [body, detail] of cases) {
      const res = await update(body)
      expect([body, res.status, res.body]).toEqual([body, 422, { detail }])
    }
    const tooMany = Array.from({ length: 1001 }, () => crypto.randomUUID())
    const res = await update({ assignmentIds: tooMany, role: 'Cook' })
    expect([res.status, res.body]).toEqual([
      422,
      { detail: [{ loc: ['body', 'assignmentIds'], msg: expect.any(String), type: 'too_long' }] },
    ])
    expect(await read(a.id)).toEqual(a)
  })

  it('is admin only at every bulk path (403 before validation)', async () => {
    for (const prefix of ['/api/v1/learn/assignments/bulk', '/api/v1/assignments/bulk']) {
      for (const op of ['update', 'create', 'courses', 'remove-courses']) {
        for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
          const res = await user.api.post(`${prefix}/${op}`, {})
          expect([`${prefix}/${op}`, user.role, res.status, res.body]).toEqual([
            `${prefix}/${op}`,
            user.role,
            403,
            { detail: 'Not enough permissions' },
          ])
        }
      }
    }
  })
})

describe('bulk create', () => {
  it('assigns users to a ship, skipping those with an active assignment on it, with the single shape', async () => {
    const ship = await createShip(org)
    const [u1, u2, u3] = [await org.addUser('crew'), await org.addUser('crew'), await org.addUser('crew')]
    const existing = await createAssignment(org, u2, ship)
    const body = { userIds: [u1.id, u2.id, u3.id], shipId: ship.id, role: 'Cook', startDate: '2026-02-01', dueDate: '2026-02-01' }
    const res = await org.admin.api.post('/api/v1/learn/assignments/bulk/create', body)
    expect(res.status).toBe(200)
    const item = (user: TestUser) => expectedAssignment(user, ship, { role: 'Cook', startDate: '2026-02-01', dueDate: '2026-02-01' })
    expect(res.body).toEqual({ createdCount: 2, assignments: [item(u1), item(u3)], skippedUserIds: [u2.id] })
    expect(await read(res.body.assignments[1].id)).toEqual(res.body.assignments[1])
    expect(await read(existing.id)).toEqual(existing)
    const again = await org.admin.api.post('/api/v1/assignments/bulk/create', body)
    expect(again.body).toEqual({ createdCount: 0, assignments: [], skippedUserIds: [u1.id, u2.id, u3.id] })
  })

  it('refuses users and ships the organization does not have, and broken date order (422, nothing created)', async () => {
    const ship = await createShip(org)
    const mine = await org.addUser('crew')
    const res = await org.admin.api.post('/api/v1/assignments/bulk/create', {
      userIds: [mine.id, other.crew.id, NIL],
      shipId: (await createShip(other)).id,
      role: 'Cook',
      startDate: '2026-02-01',
      endDate: '2026-01-01',
    })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      { loc: ['body', 'endDate'], msg: 'endDate must not be before startDate', type: 'value_error' },
      { loc: ['body', 'shipId'], msg: 'Ship not found', type: 'value_error' },
      { loc: ['body', 'userIds', 1], msg: 'User not found', type: 'value_error' },
      { loc: ['body', 'userIds', 2], msg: 'User not found', type: 'value_error' },
    ])
    const dup = await org.admin.api.post('/api/v1/assignments/bulk/create', { userIds: [mine.id, mine.id], shipId: ship.id, role: 'Cook' })
    expect(dup.body).toEqual({ detail: [{ loc: ['body', 'userIds'], msg: expect.any(String), type: 'value_error' }] })
    const list = await org.admin.api.get(`/api/v1/assignments?user_id=${mine.id}`)
    expect(list.body.items).toEqual([])
  })
})
