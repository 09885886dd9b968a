import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, type TestUser, useOrg } from '../../../factories.js'
import { addPeriod } from '../../../fixtures/sea-service.js'

const t = useTestApp()
const org = useOrg(t)

const AS_OF = '2030-01-10'
const URL = '/api/v1/crew/sea-service'
const people: Record<string, TestUser> = {}

// Hand counts as of AS_OF (both ends included):
//   master  400 days on a container ship, all in the last five years (eligible);
//   veteran 366 days as Second Officer in 2020 (a leap year), none in the last five years;
//   anna    90 as Second Officer (bulk) + 30 as Chief Officer (tanker) = 120;
//   bosun   120 as Bosun (bulk); cook 31 counted (100 more pending); waiting: nothing verified.
beforeAll(async () => {
  const add = (name: string) => org.addUser('crew', { firstName: name, lastName: 'Sailor' })
  for (const name of ['anna', 'veteran', 'cook', 'waiting', 'bosun', 'master']) people[name] = await add(name)
  const { anna, veteran, cook, waiting, bosun, master } = people
  await addPeriod(org, anna, { position: 'Second Officer', shipType: 'bulk_carrier', startDate: '2029-01-01', endDate: '2029-03-31' })
  await addPeriod(org, anna, { position: 'Chief Officer', shipType: 'oil_tanker', startDate: '2029-04-01', endDate: '2029-04-30' })
  await addPeriod(org, veteran, { position: 'second officer ', shipType: 'oil_tanker', startDate: '2020-01-01', endDate: '2020-12-31' })
  await addPeriod(org, cook, { position: 'Cook', startDate: '2029-01-01', endDate: '2029-01-31' })
  await addPeriod(org, cook, { position: 'Cook', startDate: '2029-02-01', endDate: '2029-05-11' }, 'pending')
  await addPeriod(org, waiting, { position: 'Cook', startDate: '2029-01-01', endDate: '2029-01-31' }, 'pending')
  await addPeriod(org, bosun, { position: 'Bosun', shipType: 'bulk_carrier', startDate: '2029-05-01', endDate: '2029-08-28' })
  await addPeriod(org, master, { position: 'Master', shipType: 'container', startDate: '2028-06-01', endDate: '2029-07-05' })
})

const row = (name: string, totalDays: number, lastFiveYearsDays: number, daysInRole: number | null = null) => ({
  userId: people[name].id,
  userName: `${name} Sailor`,
  totalDays,
  daysInRole,
  lastFiveYearsDays,
  eligible: lastFiveYearsDays >= 365,
})

async function list(query: string, limit = 100) {
  const res = await org.officeEmployee.api.get(`${URL}?as_of=${AS_OF}&limit=${limit}&${query}`)
  expect(res.status).toBe(200)
  return res.body
}

describe('fleet sea service (DECISIONS §14)', () => {
  it('lists people with any counted day, most days first, then userId', async () => {
    expect(await list('')).toEqual({
      items: [row('master', 400, 400), row('veteran', 366, 0), row('anna', 120, 120), row('bosun', 120, 120), row('cook', 31, 31)],
      nextCursor: null,
      hasMore: false,
      totalCount: null,
    })
  })

  it('counts days in a role, keeps people with min_days in it, and counts only a ship type when asked', async () => {
    const inRole = await list('role=%20SECOND%20officer')
    expect(inRole.items.map((item: { daysInRole: number }) => item.daysInRole)).toEqual([0, 366, 90, 0, 0])
    expect((await list('role=Second%20Officer&min_days=90')).items).toEqual([row('veteran', 366, 0, 366), row('anna', 120, 120, 90)])
    expect((await list('min_days=120')).items).toEqual([
      row('master', 400, 400),
      row('veteran', 366, 0),
      row('anna', 120, 120),
      row('bosun', 120, 120),
    ])
    expect((await list('ship_type=bulk_carrier')).items).toEqual([row('bosun', 120, 120), row('anna', 90, 90)])
    expect((await list('ship_type=oil_tanker&role=chief%20officer')).items).toEqual([row('veteran', 366, 0, 0), row('anna', 30, 30, 30)])
  })

  it('counts only days up to as_of', async () => {
    const res = await org.admin.api.get(`${URL}?as_of=2029-02-01`)
    expect(res.body.items).toEqual([row('veteran', 366, 0), row('master', 246, 246), row('anna', 32, 32), row('cook', 31, 31)])
  })

  it('pages with a cursor, with the count on every page, and refuses a forged cursor', async () => {
    const seen: string[] = []
    let cursor = ''
    for (const [expected, more] of [
      [2, true],
      [2, true],
      [1, false],
    ] as const) {
      const page = await list(`include_count=true${cursor ? `&cursor=${cursor}` : ''}`, 2)
      expect([page.items.length, page.totalCount, page.hasMore]).toEqual([expected, 5, more])
      seen.push(...page.items.map((item: { userName: string }) => item.userName))
      cursor = page.nextCursor
    }
    expect(seen).toEqual(['master Sailor', 'veteran Sailor', 'anna Sailor', 'bosun Sailor', 'cook Sailor'])
    const forged = await org.admin.api.get(`${URL}?cursor=${Buffer.from('["x","y"]').toString('base64url')}`)
    expect([forged.status, forged.body.detail[0].loc]).toEqual([422, ['query', 'cursor']])
  })

  it('answers CSV with every matching row', async () => {
    const res = await org.admin.api.get(`${URL}?as_of=${AS_OF}&format=csv&limit=1&role=Cook`)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    const line = (name: string, total: number, inRole: number, five: number) =>
      `${people[name].id},${name} Sailor,${total},${inRole},${five},${five >= 365}`
    expect(res.text).toBe(
      [
        'userId,userName,totalDays,daysInRole,lastFiveYearsDays,eligible',
        line('master', 400, 0, 400),
        line('veteran', 366, 0, 0),
        line('anna', 120, 0, 120),
        line('bosun', 120, 0, 120),
        line('cook', 31, 31, 31),
        '',
      ].join('\r\n'),
    )
  })

  it('is for staff only, and shows no one of another organization', async () => {
    const res = await org.crew.api.get(URL)
    expect([res.status, res.body]).toEqual([403, { detail: 'Not enough permissions' }])
    const other = await createOrg(t.app, t.database.db)
    expect((await other.admin.api.get(`${URL}?as_of=${AS_OF}`)).body.items).toEqual([])
    const bad = await org.admin.api.get(`${URL}?min_days=-1&ship_type=`)
    expect(bad.status).toBe(422)
    expect(bad.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['query', 'ship_type'],
      ['query', 'min_days'],
    ])
  })
})
