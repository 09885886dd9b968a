import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { todayUtc } from '../../../../src/lib/dates.js'
import { contractSweep, sweepOfContracts } from '../../../../src/modules/crew/sea-service/contract-sweep.queries.js'
import { LEASE_SECONDS, MAX_REST_MS, restFor, runSweep, type Sweep } from '../../../../src/modules/platform/jobs/sweeps.js'
import { buildTestApp, privateDatabase, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { addAssignment, addShip } from '../../../fixtures/sea-service.js'

// The contract sea-service sweep (DECISIONS §14, issue 42): per organization, in bounded batches, only
// what changed since the last run, one instance at a time. Its own database: a sweep reads every organization.

let own: Awaited<ReturnType<typeof privateDatabase>>
let app: TestApp
beforeAll(async () => {
  own = await privateDatabase()
  app = await buildTestApp({}, { database: own.database })
})
afterAll(async () => {
  await app.app.close()
  await own.dispose()
})

/** The sweep, recording the keys of each batch it brings into step. */
function watched(of: Sweep = contractSweep): { sweep: Sweep; batches: string[][] } {
  const batches: string[][] = []
  const sweep: Sweep = {
    ...of,
    apply: (db, orgId, keys, today) => {
      batches.push(keys)
      return of.apply(db, orgId, keys, today)
    },
  }
  return { sweep, batches }
}

const rowsOf = (assignmentIds: string[]) =>
  app.database.db.selectFrom('experiences').select(['assignment_id', 'ship_type']).where('assignment_id', 'in', assignmentIds).execute()

async function eventsOf(targetId: string) {
  return app.database.db.selectFrom('events').select(['type', 'actor_user_id']).where('target_id', '=', targetId).orderBy('id').execute()
}

/** Contracts of `n` crew members on one ship, ending on `endDate` (after the real today, so no write path syncs them). */
async function contracts(org: TestOrg, n: number, endDate: string, shipType = 'container') {
  const ship = await addShip(org, { shipType })
  const ids: string[] = []
  for (let i = 0; i < n; i++)
    ids.push(await addAssignment(org, await org.addUser('crew'), ship.id, { role: 'Cook', startDate: '2026-10-01', endDate }))
  return { ship, ids }
}

describe('the contract sweep', () => {
  let org: TestOrg
  beforeAll(async () => {
    org = await createOrg(app.app, app.database.db)
    // Every organization swept once as of today: the runs below read only what changes after.
    await runSweep(app.database.db, contractSweep, todayUtc())
  })

  it('brings at most a batch of contracts into step per statement, and every one of them', async () => {
    const { ids } = await contracts(org, 5, '2099-01-10')
    const { sweep, batches } = watched()
    expect(await runSweep(app.database.db, sweep, '2099-01-11', 2)).toEqual({ ran: true, changed: 5, batches: expect.any(Number) })
    expect(Math.max(...batches.map((b) => b.length))).toBe(2)
    expect(batches.flat()).toEqual(expect.arrayContaining(ids))
    expect((await rowsOf(ids)).length).toBe(5)
    const [row] = await rowsOf([ids[0]])
    expect(row.ship_type).toBe('container')
  })

  it('rests after every batch for a multiple of the time it took, never long enough to lose its lease', async () => {
    const { ids } = await contracts(org, 5, '2099-01-20')
    const { sweep, batches } = watched()
    const rests: number[] = []
    const outcome = await runSweep(app.database.db, sweep, '2099-01-21', 2, async (ms) => rests.push(ms))
    expect(outcome).toMatchObject({ ran: true, changed: 5 })
    expect(batches.flat()).toEqual(expect.arrayContaining(ids))
    expect(rests).toHaveLength(batches.length)
    for (const ms of rests) expect(ms).toBeGreaterThan(0)
    expect([restFor(10), restFor(3_600_000)]).toEqual([40, MAX_REST_MS])
    expect(MAX_REST_MS).toBeLessThan((LEASE_SECONDS * 1000) / 2)
  })

  it('reads only what changed since the last run: contracts ended since its day, and contracts and ships written since', async () => {
    // Without the overlap that re-reads the last hour's writes, so that "since the last run" is the test's own.
    const exact = sweepOfContracts(0)
    const early = await contracts(org, 1, '2099-02-10')
    const still = await contracts(org, 1, '2099-02-10')
    const late = await contracts(org, 1, '2099-02-20')
    await runSweep(app.database.db, exact, '2099-02-11')
    expect((await rowsOf([...early.ids, ...still.ids, ...late.ids])).map((r) => r.assignment_id).sort()).toEqual(
      [early.ids[0], still.ids[0]].sort(),
    )
    expect((await org.admin.api.patch(`/api/v1/shared/ships/${early.ship.id}`, { shipType: 'ro_ro' })).status).toBe(200)
    const { sweep, batches } = watched(exact)
    // Ten days on: the later contract is read (its end passed since), the one whose ship changed type
    // comes along, the other one that ended before the last run is not read at all.
    expect(await runSweep(app.database.db, sweep, '2099-02-21')).toEqual({ ran: true, changed: 2, batches: expect.any(Number) })
    const read = batches.flat()
    expect(read).toEqual(expect.arrayContaining([late.ids[0], early.ids[0]]))
    expect(read).not.toContain(still.ids[0])
    expect(await rowsOf(late.ids)).toEqual([{ assignment_id: late.ids[0], ship_type: 'container' }])
    expect(await rowsOf(early.ids)).toEqual([{ assignment_id: early.ids[0], ship_type: 'ro_ro' }])
  })

  it('does nothing while another instance holds its lease, and takes over a lease its holder let expire', async () => {
    const { ids } = await contracts(org, 1, '2099-03-10')
    await app.database.db
      .insertInto('job_leases')
      .values({ job: contractSweep.job, holder: crypto.randomUUID(), expires_at: new Date(Date.now() + 600_000) })
      .execute()
    expect(await runSweep(app.database.db, contractSweep, '2099-03-11')).toEqual({ ran: false })
    expect(await rowsOf(ids)).toEqual([])
    await app.database.db
      .updateTable('job_leases')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('job', '=', contractSweep.job)
      .execute()
    expect(await runSweep(app.database.db, contractSweep, '2099-03-11')).toMatchObject({ ran: true, changed: 1 })
    expect((await rowsOf(ids)).length).toBe(1)
    // Two instances at once: one sweeps, the other does nothing; the row is made once, its event once, by no one.
    const again = await contracts(org, 1, '2099-03-12')
    const outcomes = await Promise.all([1, 2].map(() => runSweep(app.database.db, contractSweep, '2099-03-13')))
    expect(outcomes.filter((o) => o.ran).length).toBeGreaterThanOrEqual(1)
    expect((await rowsOf(again.ids)).length).toBe(1)
    const [made] = await app.database.db.selectFrom('experiences').select('id').where('assignment_id', '=', again.ids[0]).execute()
    expect(await eventsOf(made.id)).toEqual([{ type: 'experience.created', actor_user_id: null }])
    expect(await app.database.db.selectFrom('job_leases').selectAll().execute()).toEqual([])
  })
})
