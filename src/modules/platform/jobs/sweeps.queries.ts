import { sql } from 'kysely'
import type { Db } from '../../../db/database.js'

/** Where a sweep last left an organization; null before its first run there. */
export interface SweepMark {
  sweptAt: Date
  sweptDay: string
}

/**
 * Takes or renews the job's lease for `seconds`: true when `holder` holds it now. One upsert, so two
 * instances asking at once cannot both win; a lease its holder stopped renewing (a dead instance) is
 * taken over once it expires.
 */
export async function takeLease(db: Db, job: string, holder: string, seconds: number): Promise<boolean> {
  const { rows } = await sql<{ holder: string }>`
    insert into job_leases (job, holder, expires_at) values (${job}, ${holder}, clock_timestamp() + make_interval(secs => ${seconds}))
    on conflict (job) do update set holder = excluded.holder, expires_at = excluded.expires_at
      where job_leases.holder = excluded.holder or job_leases.expires_at < clock_timestamp()
    returning holder`.execute(db)
  return rows.length === 1
}

export async function releaseLease(db: Db, job: string, holder: string): Promise<void> {
  await db.deleteFrom('job_leases').where('job', '=', job).where('holder', '=', holder).execute()
}

/** Every organization, each with where the job last left it, and the database's clock now. */
export async function organizationsToSweep(db: Db, job: string) {
  const rows = await db
    .selectFrom('organizations as o')
    .leftJoin('sweep_marks as m', (join) => join.onRef('m.organization_id', '=', 'o.id').on('m.job', '=', job))
    .select(['o.id', 'm.swept_at', 'm.swept_day', sql<Date>`clock_timestamp()`.as('now')])
    .orderBy('o.id')
    .execute()
  return rows.map((row) => ({
    orgId: row.id,
    now: row.now,
    mark: row.swept_at && row.swept_day ? { sweptAt: row.swept_at, sweptDay: row.swept_day } : null,
  }))
}

export async function markSwept(db: Db, orgId: string, job: string, sweptAt: Date, sweptDay: string): Promise<void> {
  await db
    .insertInto('sweep_marks')
    .values({ organization_id: orgId, job, swept_at: sweptAt, swept_day: sweptDay })
    .onConflict((oc) => oc.columns(['organization_id', 'job']).doUpdateSet({ swept_at: sweptAt, swept_day: sweptDay }))
    .execute()
}
