import { MANAGERS } from '../../../lib/access.js'
import { listOrCsv } from '../../../lib/csv.js'
import { invalid } from '../../../lib/errors.js'
import type { ModulePlugin } from '../../types.js'
import { listEvents } from './audit.queries.js'
import { AuditEventColumns, AuditQuery, EventPage } from './audit.schemas.js'
import { type EventType, typesMatching } from './event-types.js'

/** The `type` filter as the types it names; a part that names none is a 422. */
function expandTypes(filter: string | undefined): EventType[] | undefined {
  if (filter === undefined) return undefined
  return filter.split(',').flatMap((part) => {
    const types = typesMatching(part.trim())
    if (types.length === 0) throw invalid(['query', 'type'], `Unknown event type or prefix: ${part.trim().slice(0, 100)}`, 'enum')
    return types
  })
}

export const auditRoutes: ModulePlugin = (app, { db }) => {
  app.get(
    '/',
    {
      config: { roles: MANAGERS },
      schema: {
        operationId: 'listAuditEvents',
        summary: 'List audit events',
        description:
          'Admins and office admins. Every write of the organization, newest first (`occurredAt`, then `id`, descending), cursor-paged, or every match as CSV. ' +
          'The payload of each event is the `Event` schema; docs/events.md lists the types with examples.',
        tags: ['audit'],
        querystring: AuditQuery,
        response: { 200: EventPage },
      },
    },
    (request, reply) => {
      const types = expandTypes(request.query.type)
      return listOrCsv(request, reply, {
        name: 'audit-events',
        item: AuditEventColumns,
        query: request.query,
        list: (query) => listEvents(db, request.actor.orgId, query, types),
      })
    },
  )
}
