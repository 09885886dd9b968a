import { type Expression, type InsertQueryBuilder, type InsertResult, type QueryCreator, type RawBuilder, sql } from 'kysely'
import type { DB, Role } from '../db/schema.js'
import type { EventType } from '../modules/platform/audit/event-types.js'
import type { Actor } from './access.js'

// How events are written, with the change they record (DECISIONS §11): only by SQL, as a
// data-modifying CTE of the write's own statement (`eventsInsert`), their data built from the rows the
// statement wrote; an event of no row written is a statement of its own through the same INSERT. What
// may be written (the catalogue of event types) and how an event reads on the wire live in modules/platform/audit.

/** Who caused the events: a caller of the API, or the system (`actor` and `requestId` null, e.g. expiry notices). */
export interface EventSource {
  orgId: string
  actor: { userId: string; role: Role } | null
  requestId: string | null
}

export type { EventType }

/**
 * A source the write itself finds (a link's user, a login's organization): its organization and actor
 * as SQL over the statement's CTEs, each one value, or over the event's row `e` (a sweep across
 * organizations reads `e.organization_id`).
 */
export interface FoundSource {
  orgId: RawBuilder<string>
  actor: { userId: RawBuilder<string | null>; role: RawBuilder<Role | null> } | null
  requestId: string | null | RawBuilder<string | null>
}

type AnySource = EventSource | FoundSource

/** The caller of a request (its `Actor`, which carries the request id) as the source of its events. */
export const callerSource = (caller: Actor): EventSource => ({
  orgId: caller.orgId,
  actor: { userId: caller.userId, role: caller.role },
  requestId: caller.requestId,
})

const sourceOf = (source: AnySource | Actor): AnySource => ('actor' in source ? source : callerSource(source))

/**
 * The events of a write that is one statement, as the INSERT of one of its data-modifying CTEs: one
 * event per row of `rows` (SQL over the statement's CTEs giving `target_id` and `data` jsonb), so
 * the write stays one statement whatever its size. `ids`: see `EventIds`.
 */
export function eventsInsert<D>(
  qc: QueryCreator<D>,
  source: EventSource | FoundSource | Actor,
  type: EventType,
  targetType: string,
  rows: RawBuilder<{ target_id: string; data: unknown }>,
  ids?: EventIds,
): InsertQueryBuilder<D, any, InsertResult> {
  return insertEvents(qc, source, { type: sql`${type}::text`, targetType: sql`${targetType}::text` }, rows, ids)
}

/**
 * As `eventsInsert`, for events of several types: each row of `rows` gives its `type` (and, when
 * `targetType` is SQL over the rows `e`, its target's type), and the events are written in their order.
 */
export function typedEventsInsert<D>(
  qc: QueryCreator<D>,
  source: EventSource | FoundSource | Actor,
  targetType: string | RawBuilder<string>,
  rows: RawBuilder<{ type: EventType; target_id: string; data: unknown }>,
  ids?: EventIds,
): InsertQueryBuilder<D, any, InsertResult> {
  const target = typeof targetType === 'string' ? sql`${targetType}::text` : targetType
  return insertEvents(qc, source, { type: sql`e.type`, targetType: target }, rows, ids)
}

/**
 * Event ids, UUIDv7, handed out in row order: made by the caller (`uuidv7s(n)`, n at least the rows, so
 * that a statement compiled once binds new ones each time), or, absent, by the statement itself
 * (`seaworthy_uuid_v7()`) for a sweep that cannot know its number of rows before it runs.
 */
export type EventIds = readonly string[]

/** The one INSERT into `events`: `type` and `targetType` are SQL over the rows `e`. */
function insertEvents<D>(
  qc: QueryCreator<D>,
  source: AnySource | Actor,
  { type, targetType }: { type: RawBuilder<unknown>; targetType: RawBuilder<unknown> },
  rows: RawBuilder<{ target_id: string; data: unknown }>,
  ids: EventIds | undefined,
): InsertQueryBuilder<D, any, InsertResult> {
  const { orgId, actor, requestId } = sourceOf(source)
  const id = ids === undefined ? sql`seaworthy_uuid_v7()` : sql`(${ids}::uuid[])[row_number() over ()]`
  return (qc as unknown as QueryCreator<DB>)
    .insertInto('events')
    .columns(['id', 'organization_id', 'type', 'actor_user_id', 'actor_role', 'target_type', 'target_id', 'data', 'request_id'])
    .expression(
      sql`select ${id}, ${orgId}::uuid, ${type}, ${actor?.userId ?? null}::uuid,
        ${actor?.role ?? null}::text, ${targetType}, e.target_id, e.data, ${requestId}::text
      from (${rows}) e`,
    ) as unknown as InsertQueryBuilder<D, any, InsertResult>
}

/**
 * `data.changes` of an update, the one diff of the audit trail: between two wire shapes as jsonb
 * (`before`, `after`: columns, not expressions to repeat), each field whose value differs as
 * `[before, after]`, but the update time; `'{}'` means no change.
 */
export const changesSql = (before: Expression<unknown>, after: Expression<unknown>) =>
  sql<unknown>`(select coalesce(jsonb_object_agg(f, jsonb_build_array(${before} -> f, ${after} -> f)), '{}'::jsonb)
    from jsonb_object_keys(${after}) f where f <> 'updatedAt' and ${before} -> f is distinct from ${after} -> f)`

/** A wire shape as jsonb: field → SQL. */
export const wireJson = (wire: Record<string, Expression<unknown>>) =>
  sql<unknown>`jsonb_build_object(${sql.join(Object.entries(wire).map(([field, value]) => sql`${field}::text, ${value}`))})`

/**
 * The rows of `eventsInsert` for a create or delete: per row of `from` (a CTE's name, or a join of
 * several), its wire shape (`wire`: field → SQL over `from`, `id` among them).
 */
export function objectRows(wire: { id: Expression<unknown> } & Record<string, Expression<unknown>>, from: string | RawBuilder<unknown>) {
  return sql<{ target_id: string; data: unknown }>`select ${wire.id} as target_id, ${wireJson(wire)} as data
    from ${typeof from === 'string' ? sql.table(from) : from}`
}

/**
 * The rows of `eventsInsert` for an update from the CTE `o` (the row before) to `a` (after): its
 * `data.changes` over the wire fields `wire` gives as SQL over an alias; none when nothing changed.
 */
export function updatedRows(wire: (alias: string) => Record<string, Expression<unknown>>) {
  // The update time is no change, in either casing of the wire.
  const changeable = (alias: string) =>
    Object.fromEntries(Object.entries(wire(alias)).filter(([field]) => field !== 'updatedAt' && field !== 'updated_at'))
  return sql<{ target_id: string; data: unknown }>`select a.id as target_id, jsonb_build_object('changes', c.changes) as data
    from a join o on o.id = a.id
    cross join lateral (select ${wireJson(changeable('o'))} as before, ${wireJson(changeable('a'))} as after) w
    cross join lateral (select ${changesSql(sql.ref('w.before'), sql.ref('w.after'))} as changes) c where c.changes <> '{}'::jsonb`
}
