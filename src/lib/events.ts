import type { Selectable, Transaction } from 'kysely'
import Type, { type Static } from 'typebox'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../db/database.js'
import type { DB, EventsTable, Role } from '../db/schema.js'
import type { Actor } from './access.js'
import { iso } from './dates.js'
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
export function eventRows(source: EventSource | Actor, events: readonly NewEvent[]) {
  const { orgId, actor, requestId } = sourceOf(source)
  return events.map((event) => ({
    id: uuidv7(),
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

/**
 * Appends events in the caller's transaction (one INSERT whatever their number), so they are kept
 * exactly when the change is. Returns their ids.
 */
export async function appendEvents(db: Db | Transaction<DB>, source: EventSource | Actor, events: readonly NewEvent[]): Promise<string[]> {
  if (events.length === 0) return []
  const rows = eventRows(source, events)
  await db.insertInto('events').values(rows).execute()
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
