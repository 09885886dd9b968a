import { STAFF } from '../../lib/access.js'
import type { Module } from '../types.js'
import { listRoster } from './roster.queries.js'
import { RosterPage, RosterQuery } from './roster.schemas.js'

export const rosterRoutes: Module = (app, { db }) => {
  app.get(
    '/api/v1/crew/roster',
    {
      config: { roles: STAFF },
      schema: {
        tags: ['roster'],
        summary: "The organization's users with their verification state",
        querystring: RosterQuery,
        response: { 200: RosterPage },
      },
    },
    (request) => listRoster(db, request.actor.orgId, request.query),
  )
}
