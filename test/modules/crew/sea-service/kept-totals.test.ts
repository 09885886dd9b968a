import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { Db } from '../../../../src/db/database.js'
import { todayUtc } from '../../../../src/lib/dates.js'
import { useTestApp } from '../../../app.js'
import { type TestUser, useOrg } from '../../../factories.js'
import { addAssignment, addPeriod, addShip, seaService, setExperienceCreatedAt } from '../../../fixtures/sea-service.js'

// The fleet list reads totals kept by migration 2904's triggers; the summary counts from the experience
// rows themselves. After every kind of change both must agree, for every person, filter and date, and the
// kept rows must equal what a refresh from scratch would write: a test here fails as soon as they drift.

const t = useTestApp()
const org = useOrg(t)
const FLEET = '/api/v1/crew/sea-service'

type Item = { userId: string; totalDays: number; daysInRole: number | null; lastFiveYearsDays: number }

/** The list's items for `people` (the organization is shared by the tests of this file). */
async function fleet(people: TestUser[], query: string): Promise<Item[]> {
  const res = await org.admin.api.get(`${FLEET}?limit=100&${query}`)
  expect(res.status).toBe(200)
  return res.body.items.filter((item: Item) => people.some((p) => p.id === item.userId))
}

const byDaysThenId = (a: { days: number; id: string }, b: { days: number; id: string }) =>
  b.days - a.days || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** The list, unfiltered, by ship type and by role, equals what each person's summary says, as of each date. */
async function expectListAgreesWithSummaries(people: TestUser[], dates: string[]) {
  for (const asOf of dates) {
    const summaries = await Promise.all(people.map(async (p) => ({ id: p.id, ...(await seaService(org.admin, p.id, asOf)) })))
    const ranked = (days: (s: (typeof summaries)[number]) => number) =>
      summaries
        .map((s) => ({ id: s.id, days: days(s) }))
        .filter((s) => s.days > 0)
        .sort(byDaysThenId)
        .map((s) => [s.id, s.days])
    const list = await fleet(people, `as_of=${asOf}`)
    expect(
      list.map((i) => [i.userId, i.totalDays]),
      `as of ${asOf}`,
    ).toEqual(ranked((s) => s.totalDays))
    expect(list.map((i) => i.lastFiveYearsDays)).toEqual(list.map((i) => summaries.find((s) => s.id === i.userId)?.lastFiveYearsDays))
    const shipTypes = new Set(summaries.flatMap((s) => s.byShipType.map((b: { shipType: string | null }) => b.shipType)))
    for (const shipType of [...shipTypes].filter((type) => type !== null)) {
      const days = (s: (typeof summaries)[number]) => s.byShipType.find((b: { shipType: string }) => b.shipType === shipType)?.days ?? 0
      const listed = await fleet(people, `as_of=${asOf}&ship_type=${shipType}`)
      expect(
        listed.map((i) => [i.userId, i.totalDays]),
        `${shipType} as of ${asOf}`,
      ).toEqual(ranked(days))
    }
    const roles = new Set(summaries.flatMap((s) => s.byRole.map((b: { role: string }) => b.role)))
    for (const role of roles) {
      const days = (s: (typeof summaries)[number]) =>
        s.byRole.find((b: { role: string }) => b.role.toLowerCase() === role.toLowerCase())?.days ?? 0
      const listed = await fleet(people, `as_of=${asOf}&role=${encodeURIComponent(role)}&min_days=1`)
      expect(
        listed.map((i) => [i.userId, i.daysInRole]),
        `${role} as of ${asOf}`,
      ).toEqual(
        summaries
          .map((s) => ({ id: s.id, total: s.totalDays, days: days(s) }))
          .filter((s) => s.days > 0)
          .sort((a, b) => byDaysThenId({ id: a.id, days: a.total }, { id: b.id, days: b.total }))
          .map((s) => [s.id, s.days]),
      )
    }
  }
}

/** The organization's kept rows, in one JSON value. */
async function keptRows(db: Db): Promise<unknown> {
  const { rows } = await sql<{ kept: unknown }>`select json_build_object(
      'periods', (select coalesce(json_agg(p order by p.experience_id), '[]') from sea_service_periods p where p.organization_id = ${org.id}),
      'totals', (select coalesce(json_agg(s order by s.user_id, s.ship_type), '[]') from sea_service_totals s where s.organization_id = ${org.id})
    ) as kept`.execute(db)
  return rows[0].kept
}

/** The kept rows equal what a refresh from scratch writes (in a transaction rolled back). */
async function expectKeptAsRefreshed() {
  const kept = await keptRows(t.database.db)
  const refreshed = await t.database.db
    .transaction()
    .execute(async (trx) => {
      await sql`select sea_service_refresh(array(select u.id from users u where u.organization_id = ${org.id}))`.execute(trx)
      throw Object.assign(new Error('rolled back'), { kept: await keptRows(trx) })
    })
    .catch((error) => error.kept)
  expect(kept).toEqual(refreshed)
}

async function expectInStep(people: TestUser[], dates: string[]) {
  await expectKeptAsRefreshed()
  await expectListAgreesWithSummaries(people, dates)
}

const DATES = ['2024-03-15', '2025-01-01', '2025-06-30', '2027-01-01']

describe('kept sea-service totals follow every change (migration 2904)', () => {
  it('follow experience rows created, reviewed, edited, re-ordered and deleted, with overlaps and an open period', async () => {
    const [anna, ben, cara] = await Promise.all(['Anna', 'Ben', 'Cara'].map((name) => org.addUser('crew', { firstName: name })))
    const people = [anna, ben, cara]
    // Three overlapping periods and an open one for Anna; Ben's second period starts the day Anna's first does.
    const first = await addPeriod(org, anna, {
      position: 'Bosun',
      shipType: 'bulk_carrier',
      startDate: '2024-01-01',
      endDate: '2024-06-30',
    })
    const second = await addPeriod(org, anna, {
      position: 'bosun ',
      shipType: 'oil_tanker',
      startDate: '2024-05-01',
      endDate: '2024-09-30',
    })
    await addPeriod(org, anna, { position: 'Able Seaman', shipType: 'bulk_carrier', startDate: '2024-06-01', endDate: '2024-12-31' })
    const open = await addPeriod(org, anna, { position: 'Bosun', shipType: 'container', startDate: '2025-03-01', endDate: null })
    await addPeriod(org, ben, { position: 'Cook', shipType: 'oil_tanker', startDate: '2023-11-01', endDate: '2024-02-29' })
    const pending = await addPeriod(org, ben, { position: 'Cook', startDate: '2024-01-01', endDate: '2024-12-31' }, 'pending')
    const future = await addPeriod(org, cara, {
      position: 'Bosun',
      shipType: 'bulk_carrier',
      startDate: '2025-06-01',
      endDate: '2026-12-31',
    })
    await expectInStep(people, [...DATES, todayUtc()])

    // Verified later, edited (an edit takes the review back), re-verified, re-ordered, unverified, deleted.
    expect((await org.officeEmployee.api.post(`/api/v1/crew/experience/${pending}/verify`, {})).status).toBe(200)
    await expectInStep(people, DATES)
    expect(
      (await org.admin.api.patch(`/api/v1/crew/experience/${second}`, { startDate: '2023-12-01', shipType: 'container' })).status,
    ).toBe(200)
    await expectInStep(people, DATES)
    const edited = (await org.admin.api.get(`/api/v1/crew/users/${anna.id}/experience`)).body.find((x: { id: string }) => x.id === second)
    expect(edited.verification.status).not.toBe('verified')
    if (edited.verification.status === 'not_submitted')
      expect((await org.admin.api.post(`/api/v1/crew/experience/${second}/submit`, {})).status).toBe(200)
    expect((await org.officeEmployee.api.post(`/api/v1/crew/experience/${second}/verify`, {})).status).toBe(200)
    await expectInStep(people, DATES)
    await setExperienceCreatedAt(t.database.db, first, '2020-01-01T00:00:00Z')
    await expectInStep(people, DATES)
    expect((await org.admin.api.patch(`/api/v1/crew/experience/${open}`, { endDate: '2025-04-30' })).status).toBe(200)
    await expectInStep(people, DATES)
    // Whatever writes a review (here SQL itself), the totals follow it.
    await sql`update verifications set status = 'rejected' where target_type = 'experience' and target_id = ${future}`.execute(
      t.database.db,
    )
    await expectInStep(people, DATES)
    expect((await org.admin.api.delete(`/api/v1/crew/experience/${first}`)).status).toBe(204)
    await expectInStep(people, [...DATES, todayUtc()])
  })

  it('follow an assignment edited after its experience row was made, and reopened', async () => {
    const [dan, eve] = await Promise.all(['Dan', 'Eve'].map((name) => org.addUser('crew', { firstName: name })))
    const bulk = await addShip(org, { shipType: 'bulk_carrier' })
    const tanker = await addShip(org, { shipType: 'oil_tanker' })
    const contract = await addAssignment(org, dan, bulk.id, { role: 'Second Officer', startDate: '2025-01-01', endDate: '2025-06-30' })
    await addPeriod(org, dan, { position: 'Second Officer', shipType: 'oil_tanker', startDate: '2025-06-01', endDate: '2025-08-31' })
    await addAssignment(org, eve, tanker.id, { role: 'Cook', startDate: '2024-01-01', endDate: '2024-03-31' })
    const dates = ['2025-03-01', '2025-07-15', '2026-01-01']
    await expectInStep([dan, eve], dates)
    const url = `/api/v1/assignments/${contract}`
    expect((await org.admin.api.patch(url, { role: 'Chief Officer', startDate: '2024-12-01', shipId: tanker.id })).status).toBe(200)
    await expectInStep([dan, eve], dates)
    expect((await org.admin.api.patch(url, { endDate: '2025-07-31' })).status).toBe(200)
    await expectInStep([dan, eve], dates)
    expect((await org.admin.api.patch(url, { endDate: null })).status).toBe(200)
    await expectInStep([dan, eve], dates)
  })
})
