import { sql } from 'kysely'
import type { Db } from '../../db/database.js'

/**
 * Deletes the events older than `days` days. The events table refuses deletes except in a
 * transaction that says it is the retention job (the transaction-local `seaworthy.audit_retention`).
 */
export async function deleteOldEvents(db: Db, days: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('seaworthy.audit_retention', 'on', true)`.execute(trx)
    const result = await trx
      .deleteFrom('events')
      .where('occurred_at', '<', sql<Date>`now() - make_interval(days => ${days})`)
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  })
}
