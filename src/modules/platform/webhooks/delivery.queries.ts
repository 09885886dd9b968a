import { type Selectable, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { EventsTable } from '../../../db/schema.js'

export interface Claimed {
  event: Selectable<EventsTable>
  url: string
  secret: string
  active: boolean
}

/**
 * Takes the delivery for one attempt: it must still be pending at `attempt`, and no other worker may
 * hold it (`locked_until`, a lease as long as a job may run). Null when it cannot be taken.
 */
export async function claimDelivery(db: Db, deliveryId: string, attempt: number, leaseSeconds: number): Promise<Claimed | null> {
  // to_jsonb gives the event's timestamp as text.
  type Row = Omit<Claimed, 'event'> & { event: Omit<Claimed['event'], 'occurred_at'> & { occurred_at: string } }
  const { rows } = await sql<Row>`
    update webhook_deliveries d set locked_until = now() + make_interval(secs => ${leaseSeconds})
    from webhooks w, events e
    where d.id = ${deliveryId} and d.attempt = ${attempt} and d.status = 'pending'
      and (d.locked_until is null or d.locked_until <= now())
      and w.id = d.webhook_id and e.id = d.event_id
    returning w.url, w.secret, w.active, to_jsonb(e) as event`.execute(db)
  const row = rows[0]
  if (!row) return null
  return { ...row, event: { ...row.event, occurred_at: new Date(row.event.occurred_at) } }
}

/** Whether a delivery is still waiting for `attempt` (its claim failed only because another worker holds it). */
export async function isHeldElsewhere(db: Db, deliveryId: string, attempt: number): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('id', '=', deliveryId)
    .where('attempt', '=', attempt)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return row !== undefined
}

export interface Outcome {
  status: 'pending' | 'succeeded' | 'failed'
  responseStatus: number | null
  durationMs: number | null
  nextAttemptAt: Date | null
}

/** Records an attempt and, when another is due, queues its job: one transaction, so neither is lost. */
export async function recordAttempt(db: Db, deliveryId: string, outcome: Outcome): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        attempt: eb('attempt', '+', 1),
        status: outcome.status,
        response_status: outcome.responseStatus,
        duration_ms: outcome.durationMs,
        next_attempt_at: outcome.nextAttemptAt,
        locked_until: null,
      }))
      .where('id', '=', deliveryId)
      .execute()
    if (outcome.nextAttemptAt) await sql`select webhook_enqueue(array[${deliveryId}::uuid], ${outcome.nextAttemptAt})`.execute(trx)
  })
}

/** A delivery whose subscription was switched off before its turn: failed without an attempt. */
export async function abandonDelivery(db: Db, deliveryId: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, locked_until: null })
    .where('id', '=', deliveryId)
    .execute()
}
