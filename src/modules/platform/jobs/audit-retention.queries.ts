import { sql } from 'kysely'
import type { Db } from '../../../db/database.js'

/**
 * Deletes the events older than `days` days, and their webhook deliveries. The events table refuses
 * deletes except in a transaction that says it is the retention job (the transaction-local
 * `seaworthy.audit_retention`).
 */
export async function deleteOldEvents(db: Db, days: number): Promise<number> {
  const cutoff = sql<Date>`now() - make_interval(days => ${days})`
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('seaworthy.audit_retention', 'on', true)`.execute(trx)
    await trx
      .deleteFrom('webhook_deliveries')
      .where('event_id', 'in', (eb) => eb.selectFrom('events').select('id').where('occurred_at', '<', cutoff))
      .execute()
    const result = await trx.deleteFrom('events').where('occurred_at', '<', cutoff).executeTakeFirst()
    return Number(result.numDeletedRows)
  })
}
