import { afterAll, beforeAll, expect, it } from 'vitest'
import { addDays, todayUtc } from '../../../../src/lib/dates.js'
import { expirySweep } from '../../../../src/modules/crew/expiry-notices/expiry-notices.queries.js'
import { runSweep, type Sweep } from '../../../../src/modules/platform/jobs/sweeps.js'
import { buildTestApp, privateDatabase, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'

// The expiry notices' sweep (DECISIONS §11, issue 42) per organization, in bounded batches, reading only
// the documents whose thresholds may have been crossed or that were written since its last run. Its own
// database: a sweep reads every organization.

let own: Awaited<ReturnType<typeof privateDatabase>>
let app: TestApp
let org: TestOrg
beforeAll(async () => {
  own = await privateDatabase()
  app = await buildTestApp({}, { database: own.database })
  org = await createOrg(app.app, app.database.db)
})
afterAll(async () => {
  await app.app.close()
  await own.dispose()
})

function watched(): { sweep: Sweep; batches: string[][] } {
  const batches: string[][] = []
  return {
    batches,
    sweep: {
      ...expirySweep,
      apply: (db, orgId, keys, today) => {
        batches.push(keys)
        return expirySweep.apply(db, orgId, keys, today)
      },
    },
  }
}

const noticesOf = (ids: string[]) =>
  app.database.db
    .selectFrom('expiry_notices')
    .select(['target_id', 'threshold'])
    .where('target_id', 'in', ids)
    .orderBy('target_id')
    .orderBy('threshold')
    .execute()

async function passport(expiryDate: string): Promise<string> {
  const res = await org.admin.api.post(`/api/v1/crew/users/${org.crew.id}/identity-documents`, {
    documentType: 'passport',
    documentNumber: `P${Math.random().toString(36).slice(2, 9)}`,
    expiryDate,
  })
  expect(res.status).toBe(201)
  return res.body.id
}

it('announces in batches of at most the bound, then reads only the documents whose thresholds came due since', async () => {
  const today = todayUtc()
  const expired = await Promise.all([1, 2, 3].map((n) => passport(addDays(today, -n))))
  const later = await passport(addDays(today, 40))
  const { sweep, batches } = watched()
  expect(await runSweep(app.database.db, sweep, today, 2)).toMatchObject({ ran: true, changed: 4 })
  expect(Math.max(...batches.map((b) => b.length))).toBe(2)
  expect(await noticesOf(expired)).toEqual(expired.sort().map((id) => ({ target_id: id, threshold: 0 })))
  // Fifteen days on, the last run as if it had started two hours after those writes (past the hour it
  // re-reads): the later passport (60 days' notice announced) came due for its 30-day threshold; the
  // expired ones, announced already and unchanged, are not read again.
  const next = watched()
  await app.database.db
    .updateTable('sweep_marks')
    .set({ swept_at: new Date(Date.now() + 2 * 3600_000) })
    .execute()
  expect(await runSweep(app.database.db, next.sweep, addDays(today, 15))).toMatchObject({ ran: true, changed: 1 })
  expect(next.batches.flat()).toEqual([later])
  expect(await noticesOf([later])).toEqual([
    { target_id: later, threshold: 30 },
    { target_id: later, threshold: 60 },
  ])
})
