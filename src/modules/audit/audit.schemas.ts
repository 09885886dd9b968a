import Type, { type Static } from 'typebox'
import { ExportFormat } from '../../lib/csv.js'
import { eventWireSchema } from '../../lib/events.js'
import { ListQuery, Page, Uuid } from '../../lib/schemas.js'

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

export const EventPage = Page(eventWireSchema)
