import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { addDays } from '../../../../src/lib/dates.js'
import { createAssignment, createShip, type TestShip } from '../../../fixtures/assignments.js'
import { addRecord, addRegistration, addVerified, readiness, review, setRequirements, setSettings } from '../../../fixtures/readiness.js'

let t: TestApp
let org: TestOrg
let other: TestOrg
let north: TestShip
let south: TestShip
const ids: Record<string, string> = {}
const userIds: Record<string, string> = {}

const AS_OF = '2030-01-10'
const END = '2030-06-30'
const MATRIX = [
  { role: '*', documentTypes: ['passport'] },
  { role: 'Captain', documentTypes: ['us_visa'], certificateTypes: ['medical'] },
]

// A fleet with every kind of issue, several on their boundaries, on two ships.
beforeAll(async () => {
  t = await buildTestApp()
  ;[org, other] = await Promise.all([createOrg(t.app, t.database.db), createOrg(t.app, t.database.db)])
  await setSettings(org, {
    defaultExpiryWindowDays: 30,
    expiryWindowDays: { passport: 20 },
    validityMarginDays: { passport: 10 },
    openEndedHorizonDays: 100,
  })
  await setRequirements(org, MATRIX)
  ;[north, south] = [await createShip(org, 'MV North'), await createShip(org, 'MV South')]
  const person = async (key: string, ship: TestShip, fields: Record<string, unknown>, passport?: string | null, verified = true) => {
    const user = await org.addUser('crew', { firstName: 'Crew', lastName: key })
    ids[key] = (await createAssignment(org, user, ship, { endDate: END, ...fields })).id
    userIds[key] = user.id
    if (passport !== undefined) await (verified ? addVerified : addRecord)(org, user, 'passport', passport)
    return user
  }
  await person('ready', north, { startDate: '2030-01-01' }, '2040-01-01')
  const captain = await person('captain', north, { role: ' captain', startDate: '2030-01-05' })
  await addRecord(org, captain, 'medical', addDays(AS_OF, -1))
  const rejected = await person('rejected', north, { startDate: '2030-01-05' })
  await review(org, await addRecord(org, rejected, 'passport', '2040-01-01'), 'reject')
  await person('expired', north, { startDate: '2029-12-01' }, addDays(AS_OF, -1), false)
  await person('during', south, { startDate: '2030-02-01' }, addDays(END, 9))
  await person('soon', south, { startDate: '2030-02-01' }, addDays(END, 10))
  await person('openEnded', south, { endDate: null }, addDays(AS_OF, 110))
  await person('courses', south, { startDate: '2029-12-20', dueDate: AS_OF }, '2040-01-01')
  await addRegistration(t.database.db, org.id, ids.courses, 'failed')
  await addRegistration(t.database.db, org.id, ids.courses, 'passed')
  await person('ended', north, { startDate: '2029-01-01', endDate: addDays(AS_OF, -1) }, '2040-01-01')
  await person('endsToday', north, { endDate: AS_OF }, '2040-01-01')
  await createAssignment(other, other.crew, await createShip(other))
})
afterAll(() => t.app.close())

interface Item {
  assignmentId: string
  ready: boolean
  blockerCount: number
  warningCount: number
  codes: string[]
  startDate: string | null
  shipId: string
}

async function fleet(query: string, user = org.admin) {
  const res = await user.api.get(`/api/v1/learn/readiness?${query}`)
  expect(res.status).toBe(200)
  return res.body as { items: Item[]; nextCursor: string | null; hasMore: boolean; totalCount: number | null }
}
const idsOf = async (query: string, user = org.admin) => (await fleet(query, user)).items.map((item) => item.assignmentId)
const key = (id: string) => Object.entries(ids).find(([, value]) => value === id)?.[0]

/** Every item of the fleet list for these filters, walking the pages two at a time. */
async function walk(query: string): Promise<Item[]> {
  const items: Item[] = []
  let cursor: string | null = null
  do {
    const page = await fleet(`${query}&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
    items.push(...page.items)
    cursor = page.nextCursor
    expect(page.hasMore).toBe(cursor !== null)
  } while (cursor)
  return items
}

describe('fleet readiness', () => {
  it('agrees item by item with each assignment verdict, on every as_of', async () => {
    for (const asOf of [AS_OF, addDays(AS_OF, -1), addDays(AS_OF, 1), '2029-06-01', addDays(END, 1)]) {
      for (const active of [true, false]) {
        for (const item of await walk(`as_of=${asOf}&is_active=${active}`)) {
          const verdict = await readiness(org.admin, item.assignmentId, asOf)
          const codes = [...new Set([...verdict.blockers, ...verdict.warnings].map((issue: { code: string }) => issue.code))].sort()
          expect(
            { ready: item.ready, blockers: item.blockerCount, warnings: item.warningCount, codes: item.codes },
            `${key(item.assignmentId)} on ${asOf}`,
          ).toEqual({
            ready: verdict.ready,
            blockers: verdict.blockers.length,
            warnings: verdict.warnings.length,
            codes,
          })
        }
      }
    }
  })

  it('gives each item its assignment, counts and sorted codes, by startDate (none last) then id', async () => {
    const page = await fleet(`as_of=${AS_OF}&limit=100`)
    const byStart = (a: Item, b: Item) => ((a.startDate ?? '9999') + a.assignmentId < (b.startDate ?? '9999') + b.assignmentId ? -1 : 1)
    expect(page.items.map((item) => key(item.assignmentId))).toEqual([...page.items].sort(byStart).map((item) => key(item.assignmentId)))
    expect(page.items.map((item) => key(item.assignmentId)).slice(0, 2)).toEqual(['expired', 'courses'])
    expect(page.items.slice(-2).map((item) => item.startDate)).toEqual([null, null])
    expect(page.items.find((item) => item.assignmentId === ids.captain)).toEqual({
      assignmentId: ids.captain,
      userId: expect.any(String),
      userName: 'Crew captain',
      shipId: north.id,
      shipName: 'MV North',
      role: ' captain',
      startDate: '2030-01-05',
      endDate: END,
      ready: false,
      blockerCount: 3,
      warningCount: 1,
      codes: ['document_expired', 'document_missing', 'document_unverified'],
    })
    expect(page).toMatchObject({ nextCursor: null, hasMore: false, totalCount: null })
  })

  it('is active on as_of by default (endDate null or on/after as_of); is_active=false lists the ended ones', async () => {
    const active = await idsOf(`as_of=${AS_OF}&limit=100`)
    expect(active).toContain(ids.endsToday)
    expect(active).not.toContain(ids.ended)
    expect(active).toHaveLength(9)
    expect(await idsOf(`as_of=${AS_OF}&is_active=false`)).toEqual([ids.ended])
    expect(await idsOf(`as_of=${addDays(AS_OF, 1)}&is_active=false`)).toEqual([ids.ended, ids.endsToday])
  })

  it('filters by ready, code, ship_id and user_id, and counts what they match', async () => {
    const notReady = await fleet(`as_of=${AS_OF}&ready=false&include_count=true&limit=100`)
    expect(notReady.items.map((item) => key(item.assignmentId)).sort()).toEqual(['captain', 'during', 'expired', 'rejected'])
    expect(notReady.totalCount).toBe(4)
    expect((await idsOf(`as_of=${AS_OF}&ready=1&limit=100`)).map(key).sort()).toEqual([
      'courses',
      'endsToday',
      'openEnded',
      'ready',
      'soon',
    ])
    expect(await idsOf(`as_of=${AS_OF}&code=document_expired`)).toEqual([ids.expired, ids.captain])
    expect(await idsOf(`as_of=${AS_OF}&code=course_not_passed`)).toEqual([ids.courses])
    expect(await idsOf(`as_of=${addDays(AS_OF, 1)}&code=course_overdue`)).toEqual([ids.courses])
    expect((await idsOf(`as_of=${AS_OF}&code=document_expiring_soon`)).map(key).sort()).toEqual(['openEnded', 'soon'])
    const south_ = await fleet(`as_of=${AS_OF}&ship_id=${south.id}&include_count=true&limit=100`)
    expect([south_.items.map((item) => key(item.assignmentId)), south_.totalCount]).toEqual([['courses', 'during', 'soon', 'openEnded'], 4])
    expect(await idsOf(`as_of=${AS_OF}&ship_id=${north.id},${south.id}&limit=100`)).toHaveLength(9)
    expect(await idsOf(`as_of=${AS_OF}&user_id=${userIds.captain}`)).toEqual([ids.captain])
    const counted = await fleet(`as_of=${AS_OF}&ready=false&code=document_unverified&ship_id=${north.id}&include_count=true`)
    expect([counted.items.map((item) => key(item.assignmentId)), counted.totalCount]).toEqual([['expired', 'captain'], 2])
  })

  it('walks pages with a cursor through the assignments without a start date, and counts them all', async () => {
    const all = await fleet(`as_of=${AS_OF}&limit=100`)
    expect(await walk(`as_of=${AS_OF}`)).toEqual(all.items)
    const first = await fleet(`as_of=${AS_OF}&limit=8&include_count=true`)
    expect([first.items.length, first.hasMore, first.totalCount]).toEqual([8, true, 9])
    const last = await fleet(`as_of=${AS_OF}&limit=8&include_count=true&cursor=${first.nextCursor}`)
    expect(last).toEqual({ items: [all.items[8]], nextCursor: null, hasMore: false, totalCount: 9 })
    expect(all.items[8].startDate).toBeNull()
  })

  it('reads one matrix per request while the requirements are being replaced', async () => {
    const query = `as_of=${AS_OF}&limit=100&include_count=true`
    const withMatrix = await fleet(query)
    await setRequirements(org, [])
    const without = await fleet(query)
    expect(without).not.toEqual(withMatrix)
    const reads: Promise<unknown>[] = []
    const writes: Promise<unknown>[] = []
    for (let i = 0; i < 6; i++) {
      writes.push(org.admin.api.put('/api/v1/crew/requirements', { items: i % 2 ? [] : MATRIX }))
      reads.push(fleet(query))
    }
    await Promise.all(writes)
    for (const seen of await Promise.all(reads)) expect([withMatrix, without]).toContainEqual(seen)
    await setRequirements(org, MATRIX)
    expect(await fleet(query)).toEqual(withMatrix)
  })
})

describe('ship readiness summary', () => {
  it("counts the ship's assignments active on as_of, ready or not, and by code", async () => {
    const res = await org.officeEmployee.api.get(`/api/v1/shared/ships/${north.id.toUpperCase()}/readiness?as_of=${AS_OF}`)
    expect([res.status, res.body]).toEqual([
      200,
      {
        shipId: north.id,
        asOf: AS_OF,
        assignments: 5,
        ready: 2,
        notReady: 3,
        byCode: { document_missing: 1, document_rejected: 1, document_expired: 2, document_unverified: 2 },
      },
    ])
    const items = await walk(`as_of=${AS_OF}&ship_id=${north.id}`)
    const byCode: Record<string, number> = {}
    for (const code of items.flatMap((item) => item.codes)) byCode[code] = (byCode[code] ?? 0) + 1
    expect(res.body.byCode).toEqual(byCode)
    const later = await org.admin.api.get(`/api/v1/shared/ships/${north.id}/readiness?as_of=${addDays(AS_OF, 1)}`)
    expect(later.body).toMatchObject({ assignments: 4, asOf: addDays(AS_OF, 1) })
  })

  it('is empty for a ship without assignments, and 404 for a ship of another organization', async () => {
    const empty = await createShip(org, 'MV Empty')
    expect((await org.admin.api.get(`/api/v1/shared/ships/${empty.id}/readiness?as_of=${AS_OF}`)).body).toEqual({
      shipId: empty.id,
      asOf: AS_OF,
      assignments: 0,
      ready: 0,
      notReady: 0,
      byCode: {},
    })
    const theirs = await createShip(other)
    const res = await org.admin.api.get(`/api/v1/shared/ships/${theirs.id}/readiness`)
    expect([res.status, res.body]).toEqual([404, { detail: 'Ship not found' }])
  })
})
