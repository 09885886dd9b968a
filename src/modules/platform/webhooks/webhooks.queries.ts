import { randomBytes } from 'node:crypto'
import { type Selectable, sql, type Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../../db/database.js'
import type { DB, WebhookDeliveriesTable, WebhooksTable } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { iso, isoSql } from '../../../lib/dates.js'
import { eventsInsert, objectRows, updatedRows } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { newestFirstPage } from '../../../lib/pagination.js'
import { type EventNames, eventNamesOf, withEventNames } from '../audit/event-names.queries.js'
import type { Delivery, Webhook } from './webhooks.schemas.js'

type WebhookRow = Selectable<WebhooksTable>
type DeliveryRow = Selectable<WebhookDeliveriesTable>
type Executor = Db | Transaction<DB>

export const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  active: row.active,
  createdAt: iso(row.created_at),
})

type NamedDeliveryRow = DeliveryRow & EventNames & { target_type: string; target_id: string | null }

const toDelivery = (row: NamedDeliveryRow): Delivery => ({
  id: row.id,
  eventId: row.event_id,
  eventType: row.event_type,
  attempt: row.attempt,
  status: row.status,
  responseStatus: row.response_status,
  durationMs: row.duration_ms,
  createdAt: iso(row.created_at),
  nextAttemptAt: row.status === 'pending' && row.next_attempt_at ? iso(row.next_attempt_at) : null,
  target: { type: row.target_type, id: row.target_id },
  ...eventNamesOf(row),
})

/** Standard Webhooks secrets: `whsec_` and the base64 of the key's bytes. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`

export interface WebhookColumns {
  url?: string
  events?: string[]
  description?: string | null
  active?: boolean
}

/** A subscription in its wire shape as SQL over `alias`, for the events the statements below write. */
const webhookWire = (alias: string) => ({
  id: sql.ref(`${alias}.id`),
  url: sql.ref(`${alias}.url`),
  events: sql.ref(`${alias}.events`),
  description: sql.ref(`${alias}.description`),
  active: sql.ref(`${alias}.active`),
  createdAt: isoSql(sql.ref(`${alias}.created_at`)),
})

/** Creates the subscription and its `webhook.created` event in one statement. */
export function insertWebhook(db: Db, actor: Actor, columns: WebhookColumns & { url: string; events: string[] }, secret: string) {
  return db
    .with('a', (qc) =>
      qc
        .insertInto('webhooks')
        .values({ id: uuidv7(), organization_id: actor.orgId, ...columns, secret })
        .returningAll(),
    )
    .with('audit', (qc) => eventsInsert(qc, actor, 'webhook.created', 'webhook', objectRows(webhookWire('a'), 'a'), uuidv7s(1)))
    .selectFrom('a')
    .selectAll()
    .executeTakeFirstOrThrow()
}

export function findWebhook(db: Executor, orgId: string, webhookId: string, lock = false) {
  const query = db.selectFrom('webhooks').selectAll().where('organization_id', '=', orgId).where('id', '=', webhookId)
  return (lock ? query.forUpdate() : query).executeTakeFirst()
}

/**
 * Updates the subscription (the caller holds its row lock) and writes its `webhook.updated` event in
 * the same statement, none when no wire field changed; the secret is no wire field: a rotation writes
 * `webhook.secret_rotated`, with no data. Undefined when there is no such subscription.
 */
export function updateWebhook(db: Executor, actor: Actor, webhookId: string, changes: WebhookColumns | { secret: string }) {
  const rows =
    'secret' in changes ? sql<{ target_id: string; data: unknown }>`select a.id as target_id, '{}'::jsonb as data from a` : updatedRows(webhookWire)
  return db
    .with('o', (qc) => qc.selectFrom('webhooks').selectAll().where('organization_id', '=', actor.orgId).where('id', '=', webhookId))
    .with('a', (qc) =>
      qc
        .updateTable('webhooks')
        .set({ ...changes, updated_at: new Date() })
        .where('organization_id', '=', actor.orgId)
        .where('id', '=', webhookId)
        .returningAll(),
    )
    .with('audit', (qc) =>
      eventsInsert(qc, actor, 'secret' in changes ? 'webhook.secret_rotated' : 'webhook.updated', 'webhook', rows, uuidv7s(1)),
    )
    .selectFrom('a')
    .selectAll()
    .executeTakeFirst()
}

/** Deletes the subscription (its delivery log goes with it) and writes its `webhook.deleted` event in one statement. */
export function deleteWebhook(db: Db, actor: Actor, webhookId: string) {
  return db
    .with('a', (qc) =>
      qc.deleteFrom('webhooks').where('organization_id', '=', actor.orgId).where('id', '=', webhookId).returningAll(),
    )
    .with('audit', (qc) => eventsInsert(qc, actor, 'webhook.deleted', 'webhook', objectRows(webhookWire('a'), 'a'), uuidv7s(1)))
    .selectFrom('a')
    .select('a.id')
    .executeTakeFirst()
}

export function listWebhooks(db: Db, orgId: string, query: { limit: number; cursor?: string; include_count: boolean }) {
  const filtered = db.selectFrom('webhooks').where('organization_id', '=', orgId)
  return newestFirstPage(filtered, (qb) => qb.selectAll(), 'webhooks', query, toWebhook)
}

/**
 * A subscription's deliveries, each with its event's target and names in the same statement. The names
 * are a lateral join on the one event of each delivery, so a page walks the log's index and stops at its
 * limit instead of naming every event of the organization first.
 */
function namedDeliveries(db: Db, orgId: string, webhookId: string) {
  const eventOf = withEventNames(
    db
      .selectFrom('events')
      .where('events.organization_id', '=', orgId)
      .where(sql<boolean>`events.id = webhook_deliveries.event_id`),
  )
    .select(['events.target_type', 'events.target_id'])
    // One event per delivery anyway; the limit keeps PostgreSQL from flattening the join into a plan
    // that names every event of the organization before the page's limit (300 ms instead of 1 ms at 50,000).
    .limit(1)
    .as('e')
  return db
    .selectFrom('webhook_deliveries')
    .innerJoinLateral(eventOf, (join) => join.onTrue())
    .where('webhook_deliveries.organization_id', '=', orgId)
    .where('webhook_deliveries.webhook_id', '=', webhookId)
}

const NAMES = ['e.target_type', 'e.target_id', 'e.actor_name', 'e.person_id', 'e.person_name', 'e.target_kind', 'e.target_name'] as const

export function listDeliveries(
  db: Db,
  orgId: string,
  webhookId: string,
  query: { limit: number; cursor?: string; include_count: boolean },
) {
  const filtered = namedDeliveries(db, orgId, webhookId)
  return newestFirstPage(filtered, (qb) => qb.selectAll('webhook_deliveries').select(NAMES), 'webhook_deliveries', query, toDelivery)
}

export async function findDelivery(db: Db, orgId: string, webhookId: string, deliveryId: string): Promise<Delivery | undefined> {
  const row = await namedDeliveries(db, orgId, webhookId)
    .where('webhook_deliveries.id', '=', deliveryId)
    .selectAll('webhook_deliveries')
    .select(NAMES)
    .executeTakeFirst()
  return row && toDelivery(row)
}

/** Puts a delivery back in the queue to go out now, whatever its status; one statement with its job. */
export async function requeueDelivery(db: Db, orgId: string, webhookId: string, deliveryId: string): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    with requeued as (
      update webhook_deliveries set status = 'pending', next_attempt_at = now()
      where organization_id = ${orgId} and webhook_id = ${webhookId} and id = ${deliveryId}
      returning *
    ), queued as (
      select webhook_enqueue(array[id], now()), pg_notify('webhook_deliveries', '') from requeued
    )
    select requeued.id from requeued, (select count(*) from queued) as q`.execute(db)
  return rows.length > 0
}

/**
 * A `webhook.test` event and its delivery to its one subscription, queued at once, in one statement;
 * returns the event's id.
 */
export async function insertTestEvent(trx: Transaction<DB>, actor: Actor, webhookId: string): Promise<string> {
  const [eventId] = uuidv7s(1)
  await trx
    .with('e', (qc) =>
      eventsInsert(qc, actor, 'webhook.test', 'webhook', sql`select ${webhookId}::uuid as target_id, '{}'::jsonb as data`, [eventId]),
    )
    .with('d', (qc) =>
      qc
        .insertInto('webhook_deliveries')
        .values({ id: uuidv7(), organization_id: actor.orgId, webhook_id: webhookId, event_id: eventId, event_type: 'webhook.test', next_attempt_at: new Date() })
        .returning('id'),
    )
    .with('q', () => sql`(select webhook_enqueue(array_agg(id), now()), pg_notify('webhook_deliveries', '') from d)`)
    .selectFrom('q')
    .select(sql`count(*)`.as('n'))
    .execute()
  return eventId
}
