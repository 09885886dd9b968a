import { sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { PassInput, Sweep } from './sweeps.js'

const cutoff = (days: number) => sql<Date>`now() - make_interval(days => ${days})`

/** The organization's oldest events past the retention, a batch at a time (each batch deleted before the next is read). */
const oldest =
  (days: number) =>
  async (db: Db, { orgId, limit }: PassInput) => {
    const rows = await db
      .selectFrom('events')
      .select('id')
      .where('organization_id', '=', orgId)
      .where('occurred_at', '<', cutoff(days))
      .orderBy('occurred_at')
      .orderBy('id')
      .limit(limit)
      .execute()
    return { keys: rows.map((r) => r.id), after: rows.length === limit ? 'more' : null }
  }

/**
 * Deletes a batch of an organization's events, and their webhook deliveries. The events table refuses
 * deletes except in a transaction that says it is the retention job (the transaction-local
 * `seaworthy.audit_retention`).
 */
async function deleteEvents(db: Db, orgId: string, ids: string[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('seaworthy.audit_retention', 'on', true)`.execute(trx)
    await trx.deleteFrom('webhook_deliveries').where('organization_id', '=', orgId).where('event_id', 'in', ids).execute()
    const result = await trx.deleteFrom('events').where('organization_id', '=', orgId).where('id', 'in', ids).executeTakeFirst()
    return Number(result.numDeletedRows)
  })
}

/** Audit retention (DECISIONS §11): the events older than `days` days, per organization and batch. */
export const retentionSweep = (days: number): Sweep => ({
  job: 'audit-retention',
  passes: [oldest(days)],
  apply: (db, orgId, ids) => deleteEvents(db, orgId, ids),
})
