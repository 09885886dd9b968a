import { beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { addDays, todayUtc } from '../../../../src/lib/dates.js'
import { createAssignment, createShip, setupTwoOrgs } from '../../../fixtures/assignments.js'

let t: TestApp
let org: TestOrg
let other: TestOrg
const ids: Record<string, string> = {}
const shipIds: Record<string, string> = {}

// Four assignments, created in this order: a (north, crew, ended), b (north, ida), c (south, crew), d (east, ida).
setupTwoOrgs((env) => ({ t, org, other } = env))
beforeAll(async () => {
  const ida = await org.addUser('crew', { firstName: 'Ida', lastName: 'Quartermaine' })
  const [north, south, east] = [
    await createShip(org, 'MV Northwind'),
    await createShip(org, 'MV Southgate'),
    await createShip(org, 'MV Eastry'),
  ]
  Object.assign(shipIds, { north: north.id, south: south.id, east: east.id })
  ids.a = (await createAssignment(org, org.crew, north, { endDate: addDays(todayUtc(), -1) })).id
  ids.b = (await createAssignment(org, ida, north)).id
  ids.c = (await createAssignment(org, org.crew, south)).id
  ids.d = (await createAssignment(org, ida, east, { endDate: addDays(todayUtc(), 1) })).id
  await createAssignment(other, other.crew, await createShip(other, 'MV Northwind'))
})

const list = async (query = '', user = org.admin) => {
  const res = await user.api.get(`/api/v1/assignments/?${query}`)
  expect(res.status).toBe(200)
  return res.body
}
const idsOf = async (query: string, user = org.admin) => (await list(query, user)).items.map((a: { id: string }) => a.id)

describe('assignments: list', () => {
  it('lists the organization newest first in the envelope, at both paths', async () => {
    const page = await list()
    expect(page).toEqual({ items: expect.any(Array), nextCursor: null, hasMore: false, totalCount: null })
    expect(page.items.map((a: { id: string }) => a.id)).toEqual([ids.d, ids.c, ids.b, ids.a])
    expect(page.items[0]).toEqual((await org.admin.api.get(`/api/v1/assignments/${ids.d}`)).body)
    expect((await org.officeAdmin.api.get('/api/v1/learn/assignments')).body).toEqual(page)
  })

  it('walks pages with limit and cursor, and counts with include_count', async () => {
    const first = await list('limit=3&include_count=true')
    expect(first.items.map((a: { id: string }) => a.id)).toEqual([ids.d, ids.c, ids.b])
    expect([first.hasMore, first.totalCount]).toEqual([true, 4])
    const second = await list(`limit=3&include_count=true&cursor=${first.nextCursor}`)
    const last = (await org.admin.api.get(`/api/v1/assignments/${ids.a}`)).body
    expect(second).toEqual({ items: [last], nextCursor: null, hasMore: false, totalCount: 4 })
    const bad = await org.admin.api.get('/api/v1/assignments?cursor=garbage')
    expect(bad.body).toEqual({ detail: [{ loc: ['query', 'cursor'], msg: 'Invalid cursor', type: 'value_error' }] })
  })

  it('filters by ship_id, one id or several comma-separated (any of them)', async () => {
    expect(await idsOf(`ship_id=${shipIds.north}`)).toEqual([ids.b, ids.a])
    expect(await idsOf(`ship_id=${shipIds.south},${shipIds.east}`)).toEqual([ids.d, ids.c])
    expect(await idsOf(`ship_id=${shipIds.south},%20${shipIds.north.toUpperCase()}`)).toEqual([ids.c, ids.b, ids.a])
    expect((await list(`ship_id=${shipIds.north},${shipIds.east}&include_count=true`)).totalCount).toBe(3)
    for (const bad of ['nope', `${shipIds.north},nope`, `${shipIds.north},`]) {
      const res = await org.admin.api.get(`/api/v1/assignments?ship_id=${bad}`)
      expect(res.status).toBe(422)
      expect(res.body.detail).toEqual([{ loc: ['query', 'ship_id'], msg: expect.any(String), type: 'value_error' }])
    }
  })

  it('filters by user_id and is_active (endDate null or today or later)', async () => {
    expect(await idsOf(`user_id=${org.crew.id}`)).toEqual([ids.c, ids.a])
    expect(await idsOf('is_active=true')).toEqual([ids.d, ids.c, ids.b])
    expect(await idsOf('is_active=false')).toEqual([ids.a])
    expect(await idsOf(`is_active=1&user_id=${org.crew.id}`)).toEqual([ids.c])
    const bad = await org.admin.api.get('/api/v1/assignments?is_active=maybe&user_id=1')
    expect(bad.body.detail).toEqual([
      { loc: ['query', 'user_id'], msg: expect.any(String), type: 'uuid_parsing' },
      { loc: ['query', 'is_active'], msg: expect.any(String), type: 'bool_parsing' },
    ])
  })

  it('searches user name, e-mail and ship name, case-insensitively', async () => {
    expect(await idsOf('search=ida%20quarter')).toEqual([ids.d, ids.b])
    expect(await idsOf(`search=${encodeURIComponent(org.crew.email.toUpperCase())}`)).toEqual([ids.c, ids.a])
    expect(await idsOf('search=southg')).toEqual([ids.c])
    expect((await list('search=northwind&include_count=true')).totalCount).toBe(2)
    expect(await idsOf('search=%25')).toEqual([])
  })

  it('shows crew and office employees only their own', async () => {
    expect(await idsOf('', org.crew)).toEqual([ids.c, ids.a])
    expect(await idsOf(`user_id=${org.officeEmployee.id}`, org.crew)).toEqual([])
    expect(await idsOf('', org.officeEmployee)).toEqual([])
    const fresh = await createOrg(t.app, t.database.db)
    const ship = await createShip(fresh)
    const own = await createAssignment(fresh, fresh.officeEmployee, ship)
    await createAssignment(fresh, fresh.crew, ship)
    expect((await list('include_count=true', fresh.officeEmployee)).items.map((a: { id: string }) => a.id)).toEqual([own.id])
    expect((await list('include_count=true', fresh.officeEmployee)).totalCount).toBe(1)
  })
})
