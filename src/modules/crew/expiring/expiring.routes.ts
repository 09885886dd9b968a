import { STAFF } from '../../../lib/access.js'
import { listOrCsv } from '../../../lib/csv.js'
import { todayUtc } from '../../../lib/dates.js'
import type { ModulePlugin } from '../../types.js'
import { listExpiring } from './expiring.queries.js'
import { ExpiringItem, ExpiringPage, ExpiringQuery } from './expiring.schemas.js'

/** Relative to /api/v1/crew/expiring (DECISIONS §10). */
export const expiringRoutes: ModulePlugin = (app, { db, config }) => {
  app.get(
    '',
    {
      config: { roles: STAFF },
      schema: {
        tags: ['readiness'],
        summary: 'Documents and certificates expired or expiring, across the fleet',
        description:
          'Staff only. Identity documents and certificates with an expiry date, not rejected, that are expired (expiryDate < as_of) ' +
          "or expire within the window (expiryDate ≤ as_of + within_days; by default each type's window from the organization settings). " +
          'Ordered by expiryDate, then targetId; cursor-paged, or every match as CSV.',
        querystring: ExpiringQuery,
        response: { 200: ExpiringPage },
      },
    },
    async (request, reply) => {
      const scope = { orgId: request.actor.orgId, asOf: request.query.as_of ?? todayUtc(), defaultWindowDays: config.expiringSoonDays }
      return listOrCsv(request, reply, {
        name: 'expiring',
        item: ExpiringItem,
        query: request.query,
        list: (query) => listExpiring(db, scope, query),
      })
    },
  )
}
