import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg, type TestUser } from '../../../factories.js'
import { addDays } from '../../../../src/lib/dates.js'
import { createAssignment, createShip, type TestShip } from '../../../fixtures/assignments.js'
import { addRecord, addVerified, type RecordRef, review, setSettings } from '../../../fixtures/readiness.js'

let t: TestApp
let org: TestOrg
let other: TestOrg
let north: TestShip
let south: TestShip
const people: Record<string, TestUser> = {}
const records: Record<string, RecordRef> = {}

const AS_OF = '2030-01-10'
const URL = '/api/v1/crew/expiring'

// Windows: passport 180, medical 10, anything else 30. Each record sits on or just past its window's edge.
beforeAll(async () => {
  t = await buildTestApp()
  ;[org, other] = await Promise.all([createOrg(t.app, t.database.db), createOrg(t.app, t.database.db)])
  await setSettings(org, { defaultExpiryWindowDays: 30, expiryWindowDays: { passport: 180, medical: 10 } })
  ;[north, south] = [await createShip(org, 'MV North'), await createShip(org, 'MV South')]
  for (const name of ['Alice', 'Bob', 'Carol']) people[name] = await org.addUser('crew', { firstName: name, lastName: 'Sailor' })
  await createAssignment(org, people.Alice, north)
  await createAssignment(org, people.Bob, south, { endDate: addDays(AS_OF, -1) })
  records.passportEdge = await addVerified(org, people.Alice, 'passport', addDays(AS_OF, 180))
  records.passportOut = await addRecord(org, people.Alice, 'passport', addDays(AS_OF, 181))
  records.medicalEdge = await addRecord(org, people.Alice, 'medical', addDays(AS_OF, 10))
  records.medicalOut = await addRecord(org, people.Bob, 'medical', addDays(AS_OF, 11))
  records.bookEdge = await addVerified(org, people.Bob, 'seaman_book', addDays(AS_OF, 30))
  records.bookOut = await addRecord(org, people.Bob, 'seaman_book', addDays(AS_OF, 31))
  records.expired = await addRecord(org, people.Carol, 'national_id', addDays(AS_OF, -1))
  records.today = await addRecord(org, people.Carol, 'stcw_basic_safety', AS_OF)
  records.rejected = await addRecord(org, people.Carol, 'passport', addDays(AS_OF, -5))
  await review(org, records.rejected, 'reject')
  records.undated = await addRecord(org, people.Carol, 'us_visa', null)
  await addRecord(other, other.crew, 'passport', AS_OF)
})
afterAll(() => t.app.close())

interface Item {
  targetId: string
  daysLeft: number
}
async function list(query: string, user = org.admin) {
  const res = await user.api.get(`${URL}?as_of=${AS_OF}&${query}`)
  expect(res.status).toBe(200)
  return res.body as { items: Item[]; nextCursor: string | null; hasMore: boolean; totalCount: number | null }
}
const names = async (query: string) =>
  (await list(query)).items.map((item) => Object.entries(records).find(([, r]) => r.id === item.targetId)?.[0])

describe('fleet expiry list', () => {
  it("lists what is expired or within each type's window, soonest first, never rejected or undated records", async () => {
    const page = await list('')
    expect(page.items.map((item) => Object.entries(records).find(([, r]) => r.id === item.targetId)?.[0])).toEqual([
      'expired',
      'today',
      'medicalEdge',
      'bookEdge',
      'passportEdge',
    ])
    expect(page.items[0]).toEqual({
      targetType: 'identity_document',
      targetId: records.expired.id,
      userId: people.Carol.id,
      userName: 'Carol Sailor',
      type: 'national_id',
      expiryDate: addDays(AS_OF, -1),
      status: 'expired',
      daysLeft: -1,
      verificationStatus: 'pending',
    })
    expect(page.items[1]).toMatchObject({ targetType: 'certificate', status: 'expiring_soon', daysLeft: 0 })
    expect(page.items[4]).toMatchObject({ type: 'passport', daysLeft: 180, verificationStatus: 'verified' })
    expect(page).toMatchObject({ nextCursor: null, hasMore: false, totalCount: null })
  })

  it('takes one window for every type with within_days, and judges on as_of', async () => {
    expect(await names('within_days=0')).toEqual(['expired', 'today'])
    expect(await names('within_days=11')).toEqual(['expired', 'today', 'medicalEdge', 'medicalOut'])
    expect(await names('within_days=3650')).toHaveLength(8)
    const later = await org.admin.api.get(`${URL}?as_of=${addDays(AS_OF, 11)}&within_days=0`)
    expect(later.body.items.map((item: { daysLeft: number; status: string }) => [item.daysLeft, item.status])).toEqual([
      [-12, 'expired'],
      [-11, 'expired'],
      [-1, 'expired'],
      [0, 'expiring_soon'],
    ])
  })

  it('filters by status, type, user_id and ship_id (an assignment active on as_of)', async () => {
    expect(await names('status=expired')).toEqual(['expired'])
    expect(await names('status=expiring_soon&type=passport,%20medical')).toEqual(['medicalEdge', 'passportEdge'])
    expect(await names(`user_id=${people.Bob.id}`)).toEqual(['bookEdge'])
    expect(await names(`ship_id=${north.id}`)).toEqual(['medicalEdge', 'passportEdge'])
    expect(await names(`ship_id=${south.id}`)).toEqual([])
    const before = await org.admin.api.get(
      `${URL}?as_of=${addDays(AS_OF, -1)}&ship_id=${south.id},${north.id}&type=seaman_book&within_days=40`,
    )
    expect(before.body.items.map((item: Item) => item.targetId)).toEqual([records.bookEdge.id, records.bookOut.id])
  })

  it('uses a changed window at once', async () => {
    await setSettings(org, { expiryWindowDays: { passport: 179 } })
    expect(await names('type=passport')).toEqual([])
    await setSettings(org, { expiryWindowDays: { passport: 180 } })
    expect(await names('type=passport')).toEqual(['passportEdge'])
  })

  it('walks pages with a cursor and counts what the filters match', async () => {
    const all = (await list('')).items
    const first = await list('limit=3&include_count=true')
    expect([first.items, first.hasMore, first.totalCount]).toEqual([all.slice(0, 3), true, 5])
    const second = await list(`limit=3&include_count=true&cursor=${first.nextCursor}`)
    expect(second).toEqual({ items: all.slice(3), nextCursor: null, hasMore: false, totalCount: 5 })
    expect((await list('status=expiring_soon&include_count=true')).totalCount).toBe(4)
  })

  it('is for staff only (403), with the crew product (403)', async () => {
    expect((await org.officeEmployee.api.get(URL)).status).toBe(200)
    expect(await org.crew.api.get(URL)).toMatchObject({ status: 403, body: { detail: 'Not enough permissions' } })
    const learnOnly = await createOrg(t.app, t.database.db, { products: ['learn'] })
    expect(await learnOnly.admin.api.get(URL)).toMatchObject({
      status: 403,
      body: { detail: 'Your organization does not have the crew product' },
    })
    expect((await list('', other.admin)).items).toHaveLength(1)
  })

  it('refuses bad filters at the field, all at once (422)', async () => {
    const res = await org.admin.api.get(
      `${URL}?within_days=3651&status=soon&type=passport,visa&ship_id=x&user_id=y&as_of=2030-02-30&cursor=zz`,
    )
    expect(res.status).toBe(422)
    expect(res.body.detail.map((d: { loc: unknown[]; type: string }) => [d.loc[1], d.type])).toEqual([
      ['as_of', 'date_parsing'],
      ['within_days', 'less_than_equal'],
      ['status', 'enum'],
      ['type', 'value_error'],
      ['ship_id', 'value_error'],
      ['user_id', 'uuid_parsing'],
    ])
    const negative = await org.admin.api.get(`${URL}?within_days=-1`)
    expect(negative.body.detail).toEqual([{ loc: ['query', 'within_days'], msg: expect.any(String), type: 'greater_than_equal' }])
    const cursor = await org.admin.api.get(`${URL}?cursor=zz`)
    expect(cursor.body).toEqual({ detail: [{ loc: ['query', 'cursor'], msg: 'Invalid cursor', type: 'value_error' }] })
  })
})
