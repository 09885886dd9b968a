import { assertCanReachUser, STAFF } from '../../../lib/access.js'
import { listOrCsv } from '../../../lib/csv.js'
import { todayUtc } from '../../../lib/dates.js'
import { notFound } from '../../../lib/errors.js'
import { IdParams } from '../../../lib/schemas.js'
import type { ModulePlugin } from '../../types.js'
import { fleetSeaService } from './fleet.queries.js'
import { seaServiceSummary } from './sea-service.queries.js'
import { FleetSeaServiceItem, FleetSeaServicePage, FleetSeaServiceQuery, SeaService, SeaServiceQuery } from './sea-service.schemas.js'

const tags = ['sea-service']
// Not users' UserParams: the assignments module calls this one, and users reaches assignments.
const UserParams = IdParams('user_id')

/** Under /api/v1/crew/users/:user_id/sea-service (DECISIONS §14). */
export const userSeaServiceRoutes: ModulePlugin = (app, { db }) => {
  app.get(
    '',
    {
      schema: {
        operationId: 'getSeaService',
        summary: "A person's sea service and STCW revalidation",
        description:
          'Staff, and crew for themselves (another person is a 404). Verified experience only; calendar days, both ends included, ' +
          'up to as_of; a day two periods cover counts once, for the earlier-starting one. revalidation follows STCW regulation I/11: ' +
          'at least a year of days in the last five years.',
        tags,
        params: UserParams,
        querystring: SeaServiceQuery,
        response: { 200: SeaService },
      },
    },
    async ({ actor, params, query }) => {
      assertCanReachUser(actor, params.user_id)
      const summary = await seaServiceSummary(db, actor.orgId, params.user_id, query.as_of ?? todayUtc())
      if (!summary) throw notFound('User')
      return summary
    },
  )
}

/** Under /api/v1/crew/sea-service (DECISIONS §14). */
export const fleetSeaServiceRoutes: ModulePlugin = (app, { db }) => {
  app.get(
    '',
    {
      config: { roles: STAFF },
      schema: {
        operationId: 'listFleetSeaService',
        summary: "The fleet's sea service",
        description:
          'Staff only. People of the organization with any counted day, most totalDays first (then userId); ' +
          'role adds daysInRole, ship_type counts only periods of that type, min_days keeps people with at least that many days ' +
          '(in role when given). Cursor-paged, or every match as CSV.',
        tags,
        querystring: FleetSeaServiceQuery,
        response: { 200: FleetSeaServicePage },
      },
    },
    async (request, reply) => {
      const asOf = request.query.as_of ?? todayUtc()
      return listOrCsv(request, reply, {
        name: 'sea-service',
        item: FleetSeaServiceItem,
        query: request.query,
        list: (query) => fleetSeaService(db, request.actor.orgId, asOf, query),
      })
    },
  )
}
