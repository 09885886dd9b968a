import { STAFF } from '../../../lib/access.js'
import { listOrCsv } from '../../../lib/csv.js'
import type { ModulePlugin } from '../../types.js'
import { listRoster } from './roster.queries.js'
import { RosterPage, RosterQuery, RosterUser } from './roster.schemas.js'

export const rosterRoutes: ModulePlugin = (app, { db }) => {
  app.get(
    '/',
    {
      config: { roles: STAFF },
      schema: {
        operationId: 'listRoster',
        description: 'Staff only. Each user with their profile verification state; filterable and cursor-paged, or every match as CSV.',
        tags: ['roster'],
        summary: "The organization's users with their verification state",
        querystring: RosterQuery,
        response: { 200: RosterPage },
      },
    },
    (request, reply) =>
      listOrCsv(request, reply, {
        name: 'roster',
        item: RosterUser,
        query: request.query,
        list: (query) => listRoster(db, request.actor.orgId, query),
      }),
  )
}
