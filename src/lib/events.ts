import type { Transaction } from 'kysely'
import type { Selectable } from 'kysely'
import Type from 'typebox'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../db/database.js'
import type { DB, EventsTable, Role } from '../db/schema.js'
import { DateTime, Nullable, Uuid } from './schemas.js'

/** Every event type of DECISIONS §11. */
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

/** Who wrote: a request's actor, or the system (`actor` and `requestId` null). */
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

/** Appends events in one INSERT, inside the caller's transaction when given one; returns their ids. */
export async function appendEvents(db: Db | Transaction<DB>, source: EventSource, events: NewEvent[]): Promise<string[]> {
  if (events.length === 0) return []
  const rows = events.map((event) => ({
    id: uuidv7(),
    organization_id: source.orgId,
    type: event.type,
    actor_user_id: source.actor?.userId ?? null,
    actor_role: source.actor?.role ?? null,
    target_type: event.target.type,
    target_id: event.target.id,
    data: JSON.stringify(event.data ?? null),
    request_id: source.requestId,
  }))
  await db.insertInto('events').values(rows).execute()
  return rows.map((row) => row.id)
}

export const eventWireSchema = Type.Object(
  {
    id: Uuid,
    type: Type.String(),
    occurredAt: DateTime,
    organizationId: Uuid,
    actor: Nullable(Type.Object({ userId: Uuid, role: Type.String() })),
    target: Type.Object({ type: Type.String(), id: Nullable(Uuid) }),
    data: Type.Unknown(),
    requestId: Nullable(Type.String()),
  },
  { title: 'Event' },
)

export function eventWire(row: Selectable<EventsTable>) {
  return {
    id: row.id,
    type: row.type,
    occurredAt: row.occurred_at.toISOString(),
    organizationId: row.organization_id,
    actor: row.actor_user_id ? { userId: row.actor_user_id, role: row.actor_role as Role } : null,
    target: { type: row.target_type, id: row.target_id },
    data: row.data,
    requestId: row.request_id,
  }
}
