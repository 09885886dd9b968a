import { isDeepStrictEqual } from 'node:util'
import {
  type Expression,
  type InsertQueryBuilder,
  type InsertResult,
  type QueryCreator,
  type RawBuilder,
  type Selectable,
  sql,
  type Transaction,
} from 'kysely'
import Type, { type Static } from 'typebox'
import type { Db } from '../db/database.js'
import type { DB, EventsTable, Role } from '../db/schema.js'
import type { Actor } from './access.js'
import { iso } from './dates.js'
import { uuidv7s } from './ids.js'
import { DateTime, Nullable, Uuid } from './schemas.js'

/** Every event type of DECISIONS §11: the audit filter, webhook subscriptions and the OpenAPI description read this list. */
export const EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.suspended',
  'user.restored',
  'ship.created',
  'ship.updated',
  'ship.deleted',
  'identity_document.created',
  'identity_document.updated',
  'identity_document.deleted',
  'certificate.created',
  'certificate.updated',
  'certificate.deleted',
  'experience.created',
  'experience.updated',
  'experience.deleted',
  'next_of_kin.created',
  'next_of_kin.updated',
  'next_of_kin.deleted',
  'verification.submitted',
  'verification.verified',
  'verification.rejected',
  'verification.reopened',
  'assignment.created',
  'assignment.updated',
  'assignment.courses_assigned',
  'assignment.courses_removed',
  'course.created',
  'course.updated',
  'course.deleted',
  'course_import.completed',
  'course_import.failed',
  'curriculum.created',
  'curriculum.updated',
  'curriculum.deleted',
  'registration.passed',
  'registration.failed',
  'upload.ready',
  'upload.rejected',
  'document.expiring',
  'document.expired',
  'auth.login_failed',
  'auth.throttled',
  'organization.updated',
  'requirements.updated',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'webhook.test',
] as const
export type EventType = (typeof EVENT_TYPES)[number]

/** Who caused the events: a caller of the API, or the system (`actor` and `requestId` null, e.g. expiry notices). */
export interface EventSource {
  orgId: string
  actor: { userId: string; role: Role } | null
  requestId: string | null
}

export interface NewEvent {
  type: EventType
  target: { type: string; id: string | null }
  data: unknown
}

/** The caller of a request (its `Actor`, which carries the request id) is a source as it is. */
const sourceOf = (source: EventSource | Actor): EventSource =>
  'actor' in source ? source : { orgId: source.orgId, actor: { userId: source.userId, role: source.role }, requestId: source.requestId }

/** The rows of `events` for these events, ids generated here like every other id. */
function eventRows(source: EventSource | Actor, events: readonly NewEvent[]) {
  const { orgId, actor, requestId } = sourceOf(source)
  const ids = uuidv7s(events.length)
  return events.map((event, i) => ({
    id: ids[i],
    organization_id: orgId,
    type: event.type,
    actor_user_id: actor?.userId ?? null,
    actor_role: actor?.role ?? null,
    target_type: event.target.type,
    target_id: event.target.id,
    data: JSON.stringify(event.data),
    request_id: requestId,
  }))
}

/** Nine parameters per event: 5,000 events stay well under PostgreSQL's limit of 65,535 per statement. */
const EVENTS_PER_INSERT = 5000

/**
 * Appends events in the caller's transaction (one INSERT up to 5,000 of them), so they are kept
 * exactly when the change is. Returns their ids.
 */
export async function appendEvents(db: Db | Transaction<DB>, source: EventSource | Actor, events: readonly NewEvent[]): Promise<string[]> {
  const rows = eventRows(source, events)
  // A statement takes at most 65,535 parameters, nine per event: a write that collects more events than 5,000 takes several.
  for (let start = 0; start < rows.length; start += EVENTS_PER_INSERT) {
    await db
      .insertInto('events')
      .values(rows.slice(start, start + EVENTS_PER_INSERT))
      .execute()
  }
  return rows.map((row) => row.id)
}

const EventActor = Type.Object({ userId: Uuid, role: Type.String() })
const Target = Type.Object({
  type: Type.String({ description: 'The resource in singular snake_case: user, ship, identity_document, …' }),
  id: Nullable(Uuid),
})

export const eventWireSchema = Type.Object(
  {
    id: Uuid,
    type: Type.Enum(EVENT_TYPES),
    occurredAt: DateTime,
    organizationId: Uuid,
    actor: Nullable(EventActor),
    target: Target,
    data: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'Creates: the created object as its single-item GET returns it. Updates: `{changes: {field: [before, after]}}` ' +
          'of the wire fields that changed. Deletes: the last wire shape. See docs/events.md for each type.',
      },
    ),
    requestId: Nullable(Type.String({ description: 'The x-request-id of the request that caused it; null for the system' })),
  },
  {
    title: 'Event',
    description: `One entry of the audit trail, also the body of a webhook delivery. \`actor\` is null for the system (expiry notices). Types: ${EVENT_TYPES.join(', ')}.`,
    examples: [
      {
        id: '0190a000-0000-7000-8000-0000000000e1',
        type: 'ship.updated',
        occurredAt: '2026-06-15T08:30:00.000Z',
        organizationId: '0190a000-0000-7000-8000-000000000001',
        actor: { userId: '0190a000-0000-7000-8000-000000000a01', role: 'admin' },
        target: { type: 'ship', id: '0190a000-0000-7000-8000-000000000a02' },
        data: { changes: { portOfRegistry: [null, 'Bergen'] } },
        requestId: 'req-4f1c2a',
      },
    ],
  },
)
export type EventWire = Static<typeof eventWireSchema>

export const eventWire = (row: Selectable<EventsTable>): EventWire => ({
  id: row.id,
  type: row.type as EventType,
  occurredAt: iso(row.occurred_at),
  organizationId: row.organization_id,
  actor: row.actor_user_id ? { userId: row.actor_user_id, role: row.actor_role as Role } : null,
  target: { type: row.target_type, id: row.target_id },
  data: row.data as EventWire['data'],
  requestId: row.request_id,
})

/** The types a pattern names: one type, or `prefix.*` for every type of that prefix; empty when it names none. */
export function typesMatching(pattern: string): EventType[] {
  if (pattern.endsWith('.*')) return EVENT_TYPES.filter((type) => type.startsWith(pattern.slice(0, -1)))
  return EVENT_TYPES.filter((type) => type === pattern)
}

type Wire = { id: string } & Record<string, unknown>

/** `data.changes` of an update: each wire field whose value differs, as [before, after]; the update time is no change. */
export function changesOf(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {}
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (field === 'updatedAt' || field === 'updated_at' || isDeepStrictEqual(before[field], after[field])) continue
    changes[field] = [before[field] ?? null, after[field] ?? null]
  }
  return changes
}

/** A create or delete: the object itself, in its wire shape, is the data. */
export const objectEvent = (type: EventType, targetType: string, object: Wire): NewEvent => ({
  type,
  target: { type: targetType, id: object.id },
  data: object,
})

/** An update: none when no wire field changed (DECISIONS §11). */
export function updateEvents(type: EventType, targetType: string, before: Wire, after: Wire): NewEvent[] {
  const changes = changesOf(before, after)
  return Object.keys(changes).length === 0 ? [] : [{ type, target: { type: targetType, id: after.id }, data: { changes } }]
}

/**
 * Runs a write in a transaction and appends the events it collected in `events` at its end, in the
 * same transaction: a write that fails or is refused leaves none.
 */
export function withEvents<T>(db: Db, source: EventSource | Actor, write: (trx: Db, events: NewEvent[]) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const events: NewEvent[] = []
    const result = await write(trx, events)
    await appendEvents(trx, source, events)
    return result
  })
}

/**
 * The events of a write that is one statement, as the INSERT of one of its data-modifying CTEs: one
 * event per row of `rows` (SQL over the statement's CTEs giving `target_id` and `data` jsonb), so
 * the write stays one statement whatever its size. `ids` (`uuidv7s(n)`, n at least the rows) are handed
 * out in row order: the caller makes them, so that a statement compiled once binds new ones each time.
 */
export function eventsInsert<D>(
  qc: QueryCreator<D>,
  source: EventSource | Actor,
  type: EventType,
  targetType: string,
  rows: RawBuilder<{ target_id: string; data: unknown }>,
  ids: readonly string[],
): InsertQueryBuilder<D, any, InsertResult> {
  return insertEvents(qc, source, sql`${type}::text`, targetType, rows, ids)
}

/** As `eventsInsert`, for events of several types: each row of `rows` gives its `type`, and the events are written in their order. */
export function typedEventsInsert<D>(
  qc: QueryCreator<D>,
  source: EventSource | Actor,
  targetType: string,
  rows: RawBuilder<{ type: EventType; target_id: string; data: unknown }>,
  ids: readonly string[],
): InsertQueryBuilder<D, any, InsertResult> {
  return insertEvents(qc, source, sql`e.type`, targetType, rows, ids)
}

/** The INSERT of `eventsInsert` and `typedEventsInsert`: `type` is SQL over the rows `e`. */
function insertEvents<D>(
  qc: QueryCreator<D>,
  source: EventSource | Actor,
  type: RawBuilder<unknown>,
  targetType: string,
  rows: RawBuilder<{ target_id: string; data: unknown }>,
  ids: readonly string[],
): InsertQueryBuilder<D, any, InsertResult> {
  const { orgId, actor, requestId } = sourceOf(source)
  return (qc as unknown as QueryCreator<DB>)
    .insertInto('events')
    .columns(['id', 'organization_id', 'type', 'actor_user_id', 'actor_role', 'target_type', 'target_id', 'data', 'request_id'])
    .expression(
      sql`select (${ids}::uuid[])[row_number() over ()], ${orgId}::uuid, ${type}, ${actor?.userId ?? null}::uuid,
        ${actor?.role ?? null}::text, ${targetType}::text, e.target_id, e.data, ${requestId}::text
      from (${rows}) e`,
    ) as unknown as InsertQueryBuilder<D, any, InsertResult>
}

/**
 * `data.changes` in SQL, for events written by a single statement: per wire field its value before
 * and after as SQL; a field whose value did not change is left out, so `'{}'` means no change.
 */
export function changesSql(fields: Record<string, [Expression<unknown>, Expression<unknown>]>) {
  const pairs = Object.entries(fields).map(
    ([field, [before, after]]) =>
      sql`${field}::text, case when ${before} is distinct from ${after} then jsonb_build_array(${before}, ${after}) end`,
  )
  return sql<unknown>`jsonb_strip_nulls(jsonb_build_object(${sql.join(pairs)}))`
}

/**
 * The rows of `eventsInsert` for a create or delete: per row of `from` (a CTE's name, or a join of
 * several), its wire shape (`wire`: field → SQL over `from`, `id` among them).
 */
export function objectRows(wire: { id: Expression<unknown> } & Record<string, Expression<unknown>>, from: string | RawBuilder<unknown>) {
  const pairs = Object.entries(wire).map(([field, value]) => sql`${field}::text, ${value}`)
  return sql<{ target_id: string; data: unknown }>`select ${wire.id} as target_id, jsonb_build_object(${sql.join(pairs)}) as data
    from ${typeof from === 'string' ? sql.table(from) : from}`
}

/**
 * The rows of `eventsInsert` for an update from the CTE `o` (the row before) to `a` (after): its
 * `data.changes` over the wire fields `wire` gives as SQL over an alias; none when nothing changed.
 */
export function updatedRows(wire: (alias: string) => Record<string, Expression<unknown>>) {
  const [before, after] = [wire('o'), wire('a')]
  const fields = Object.keys(after).filter((field) => field !== 'updatedAt' && field !== 'updated_at')
  const changes = changesSql(Object.fromEntries(fields.map((field) => [field, [before[field], after[field]]])))
  return sql<{ target_id: string; data: unknown }>`select a.id as target_id, jsonb_build_object('changes', c.changes) as data
    from a join o on o.id = a.id cross join lateral (select ${changes} as changes) c where c.changes <> '{}'::jsonb`
}

/**
 * `data.changes` in SQL between two wire shapes as jsonb (`before`, `after`: columns, not expressions
 * to repeat): each field whose value differs, but the update time; `'{}'` means no change.
 */
export const jsonChangesSql = (before: Expression<unknown>, after: Expression<unknown>) =>
  sql<unknown>`(select coalesce(jsonb_object_agg(f, jsonb_build_array(${before} -> f, ${after} -> f)), '{}'::jsonb)
    from jsonb_object_keys(${after}) f where f <> 'updatedAt' and ${before} -> f is distinct from ${after} -> f)`
