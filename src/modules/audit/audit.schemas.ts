import Type, { type Static } from 'typebox'
import { ExportFormat } from '../../lib/csv.js'
import { eventWireSchema } from '../../lib/events.js'
import { ListQuery, Nullable, Page, Uuid } from '../../lib/schemas.js'

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
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Events that occurred at or after this instant' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Events that occurred before this instant' })),
})
export type AuditQuery = Static<typeof AuditQuery>

const EventNames = Type.Object({
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
