import { sql } from 'kysely'
import type { Db } from '../../db/database.js'

/** Seconds until the oldest failure in the window leaves it, or 0 while under the limit. */
export async function throttleWait(
  db: Db,
  email: string,
  address: string,
  limits: { maxPerEmail: number; maxPerAddress: number; windowSeconds: number },
): Promise<number> {
  const since = new Date(Date.now() - limits.windowSeconds * 1000)
  const { rows } = await sql<{ key: string; n: number; oldest: Date | null }>`
    select 'email' as key, count(*)::int as n, (array_agg(created_at order by created_at desc))[${limits.maxPerEmail}] as oldest
      from login_failures where email_lower = ${email} and created_at > ${since}
    union all
    select 'address', count(*)::int, (array_agg(created_at order by created_at desc))[${limits.maxPerAddress}]
      from login_failures where address = ${address} and created_at > ${since}`.execute(db)
  let wait = 0
  for (const row of rows) {
    const max = row.key === 'email' ? limits.maxPerEmail : limits.maxPerAddress
    if (row.n >= max && row.oldest) {
      wait = Math.max(wait, (new Date(row.oldest).getTime() + limits.windowSeconds * 1000 - Date.now()) / 1000)
    }
  }
  return wait
}

export async function recordFailure(db: Db, email: string, address: string): Promise<void> {
  await db.insertInto('login_failures').values({ email_lower: email, address }).execute()
  // Old failures no longer matter; trimming here keeps the table small without a job.
  await db
    .deleteFrom('login_failures')
    .where('created_at', '<', new Date(Date.now() - 24 * 3600 * 1000))
    .execute()
}
