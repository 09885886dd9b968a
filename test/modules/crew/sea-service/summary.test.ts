import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, useOrg } from '../../../factories.js'
import { addPeriod, seaService, setExperienceCreatedAt } from '../../../fixtures/sea-service.js'

const t = useTestApp()
const org = useOrg(t)

const AS_OF = '2030-01-10'

describe('sea-service summary (DECISIONS §14)', () => {
  it('resolves three overlapping periods, counts an open one to as_of and leaves out what is not verified (hand count)', async () => {
    const user = await org.addUser('crew')
    // A 90 days; C starts inside A and keeps only 1–15 April (15); B starts inside both and keeps 16–30 April (15).
    const a = await addPeriod(org, user, {
      position: 'Second Officer',
      shipType: 'bulk_carrier',
      startDate: '2029-01-01',
      endDate: '2029-03-31',
    })
    const b = await addPeriod(org, user, {
      position: ' second officer ',
      shipType: 'oil_tanker',
      startDate: '2029-03-01',
      endDate: '2029-04-30',
    })
    const c = await addPeriod(org, user, {
      position: 'Chief Officer',
      shipType: 'bulk_carrier',
      startDate: '2029-02-15',
      endDate: '2029-04-15',
    })
    const pending = await addPeriod(org, user, { position: 'Cook', startDate: '2029-05-01', endDate: '2029-05-10' }, 'pending')
    // Open: 1 December to as_of is 41 days.
    const open = await addPeriod(org, user, { position: 'Second Officer', startDate: '2029-12-01' })
    await addPeriod(org, user, { position: 'Second Officer', startDate: '2030-02-01', endDate: '2030-03-01' })

    const summary = await seaService(org.admin, user.id, AS_OF)
    const period = (id: string, fields: object) => ({ source: 'manual', id, shipName: null, endDate: null, ...fields })
    expect(summary).toEqual({
      asOf: AS_OF,
      totalDays: 161,
      byRole: [
        { role: 'Second Officer', days: 146 },
        { role: 'Chief Officer', days: 15 },
      ],
      byShipType: [
        { shipType: 'bulk_carrier', days: 105 },
        { shipType: null, days: 41 },
        { shipType: 'oil_tanker', days: 15 },
      ],
      periods: [
        period(a, {
          shipType: 'bulk_carrier',
          role: 'Second Officer',
          startDate: '2029-01-01',
          endDate: '2029-03-31',
          days: 90,
          countedDays: 90,
        }),
        period(c, {
          shipType: 'bulk_carrier',
          role: 'Chief Officer',
          startDate: '2029-02-15',
          endDate: '2029-04-15',
          days: 60,
          countedDays: 15,
        }),
        period(b, {
          shipType: 'oil_tanker',
          role: ' second officer ',
          startDate: '2029-03-01',
          endDate: '2029-04-30',
          days: 61,
          countedDays: 15,
        }),
        period(pending, { shipType: null, role: 'Cook', startDate: '2029-05-01', endDate: '2029-05-10', days: 10, countedDays: 0 }),
        period(open, { shipType: null, role: 'Second Officer', startDate: '2029-12-01', days: 41, countedDays: 41 }),
      ],
      overlaps: [
        { ids: [a, c], days: 45 },
        { ids: [a, b], days: 31 },
        { ids: [c, b], days: 46 },
      ],
      lastFiveYearsDays: 161,
      lastSixMonthsDays: 41,
      revalidation: { eligible: false, daysNeeded: 204 },
    })
  })

  it('gives a day two periods starting together to the earlier-created, and counts only up to as_of', async () => {
    const user = await org.addUser('crew')
    const later = await addPeriod(org, user, { position: 'Bosun', startDate: '2029-06-01', endDate: '2029-06-20' })
    const earlier = await addPeriod(org, user, { position: 'Able Seaman', startDate: '2029-06-01', endDate: '2029-06-10' })
    await setExperienceCreatedAt(t.database.db, earlier, '2020-01-01T00:00:00Z')
    const summary = await seaService(org.admin, user.id, '2029-06-15')
    expect(summary.periods.map((p: { id: string; days: number; countedDays: number }) => [p.id, p.days, p.countedDays])).toEqual([
      [earlier, 10, 10],
      [later, 15, 5],
    ])
    expect(summary.overlaps).toEqual([{ ids: [earlier, later], days: 10 }])
    expect(summary.byRole).toEqual([
      { role: 'Able Seaman', days: 10 },
      { role: 'Bosun', days: 5 },
    ])
    expect(summary.totalDays).toBe(15)
  })

  it('answers revalidation at its edge: 365 days in the five years after as_of minus five years', async () => {
    const user = await org.addUser('crew')
    // 10 January 2025 to 9 January 2026 is 365 days; the window starts the day after 10 January 2025, so 364 count.
    await addPeriod(org, user, { position: 'Master', startDate: '2025-01-10', endDate: '2026-01-09' })
    const short = await seaService(org.admin, user.id, AS_OF)
    expect([short.totalDays, short.lastFiveYearsDays, short.revalidation]).toEqual([365, 364, { eligible: false, daysNeeded: 1 }])
    const other = await org.addUser('crew')
    await addPeriod(org, other, { position: 'Master', startDate: '2025-01-11', endDate: '2026-01-10' })
    expect((await seaService(org.admin, other.id, AS_OF)).revalidation).toEqual({ eligible: true, daysNeeded: 0 })
  })

  it('counts rejected and unsubmitted rows as nothing, and an empty record as zeros', async () => {
    const user = await org.addUser('crew')
    const empty = await seaService(org.admin, user.id, AS_OF)
    expect(empty).toEqual({
      asOf: AS_OF,
      totalDays: 0,
      byRole: [],
      byShipType: [],
      periods: [],
      overlaps: [],
      lastFiveYearsDays: 0,
      lastSixMonthsDays: 0,
      revalidation: { eligible: false, daysNeeded: 365 },
    })
    await addPeriod(org, user, { position: 'Cook', startDate: '2029-01-01', endDate: '2029-01-31' }, 'rejected')
    await addPeriod(org, user, { position: 'Cook', startDate: '2029-01-01', endDate: '2029-01-31' }, 'not_submitted')
    const summary = await seaService(org.admin, user.id, AS_OF)
    expect([summary.totalDays, summary.overlaps, summary.periods.map((p: { countedDays: number }) => p.countedDays)]).toEqual([
      0,
      [],
      [0, 0],
    ])
  })

  it('lets crew read their own summary only: another person, another organization and no one are the same 404', async () => {
    const [crew, mate] = [await org.addUser('crew'), await org.addUser('crew')]
    await addPeriod(org, crew, { position: 'Cook', startDate: '2029-01-01', endDate: '2029-01-31' })
    expect((await seaService(crew, crew.id, AS_OF)).totalDays).toBe(31)
    expect((await seaService(org.officeEmployee, crew.id, AS_OF)).totalDays).toBe(31)
    const other = await createOrg(t.app, t.database.db)
    const missing = '0190a000-0000-7000-8000-00000000ffff'
    for (const [caller, id] of [
      [crew, mate.id],
      [other.admin, crew.id],
      [org.admin, missing],
    ] as const) {
      const res = await caller.api.get(`/api/v1/crew/users/${id}/sea-service`)
      expect([res.status, res.body]).toEqual([404, { detail: 'User not found' }])
    }
    const bad = await org.admin.api.get(`/api/v1/crew/users/${crew.id}/sea-service?as_of=2030-02-30`)
    expect(bad.status).toBe(422)
    expect(bad.body.detail).toEqual([{ loc: ['query', 'as_of'], msg: expect.any(String), type: 'date_parsing' }])
  })
})
