import type { Selectable } from 'kysely'
import Type, { type Static } from 'typebox'
import type { EventsTable, Role } from '../../../db/schema.js'
import { ExportFormat } from '../../../lib/csv.js'
import { iso } from '../../../lib/dates.js'
import { DateTime, ListQuery, Nullable, Page, Uuid } from '../../../lib/schemas.js'
import { EVENT_TYPES, type EventType } from './event-types.js'

const EventActor = Type.Object({ userId: Uuid, role: Type.String() })
export const Target = Type.Object({
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

export const AuditQuery = Type.Object({
  ...Type.Omit(ListQuery, ['search']).properties,
  format: ExportFormat,
  type: Type.Optional(
    Type.String({
      maxLength: 2000,
      description: 'Comma-separated event types; `prefix.*` (e.g. `assignment.*`) matches every type of that prefix',
    }),
  ),
  target_id: Type.Optional(Uuid),
  actor_id: Type.Optional(Uuid),
  person_id: Type.Optional(
    Type.String({
      format: 'uuid',
      description: "Events concerning this person: their account, or a record or assignment of theirs (the list's personId)",
    }),
  ),
  target_name: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: "Events whose target's name contains this text, case-insensitively (the list's targetName: a ship's or course's name, a record's number, …)",
    }),
  ),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Events that occurred at or after this instant' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Events that occurred before this instant' })),
})
export type AuditQuery = Static<typeof AuditQuery>

/** The people and record an event concerns, by name: beside an audit event, and beside a webhook delivery. */
export const EventNames = Type.Object({
  actorName: Nullable(Type.String({ description: 'Who did it, by name; null for the system' })),
  personId: Nullable(Uuid),
  personName: Nullable(Type.String({ description: 'The person whose account, record or assignment it is, by name' })),
  targetKind: Nullable(Type.String({ description: "A document's or certificate's type" })),
  targetName: Nullable(
    Type.String({ description: "The target in words: a record's number, an experience's company, a ship's or course's name" }),
  ),
})

/**
 * An event as the audit list shows it: the `Event` itself (a webhook's payload too) and, added beside it,
 * the people and record it concerns by name.
 */
export const AuditEvent = Type.Intersect([eventWireSchema, EventNames], {
  title: 'AuditEvent',
  examples: [
    {
      ...(eventWireSchema as unknown as { examples: Record<string, unknown>[] }).examples[0],
      actorName: 'Olav Hansen',
      personId: null,
      personName: null,
      targetKind: null,
      targetName: 'MV Nordic Star',
    },
  ],
})

/** The same as the CSV export's columns: the event's, then the names. */
export const AuditEventColumns = Type.Object({ ...eventWireSchema.properties, ...EventNames.properties })

// Titled as before the names were added, so the document's schema names stay what clients know.
const page = Page(AuditEvent)
export const EventPage = Type.Object(page.properties, { title: 'EventPage', examples: (page as { examples?: unknown[] }).examples })
