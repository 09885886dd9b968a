import type { FastifyRequest } from 'fastify'
import { PRODUCTS } from '../../../db/schema.js'
import { assertProducts, MANAGERS, rowOwner, STAFF } from '../../../lib/access.js'
import { listOrCsv } from '../../../lib/csv.js'
import { todayUtc } from '../../../lib/dates.js'
import { notFound } from '../../../lib/errors.js'
import type { ModuleDeps, ModulePlugin } from '../../types.js'
import type { VerdictContext } from './issues.queries.js'
import { assignmentReadiness, fleetReadiness, shipReadiness } from './readiness.queries.js'
import { AsOfQuery, AssignmentParams, FleetItem, FleetPage, FleetQuery, Readiness, ShipParams, ShipReadiness } from './readiness.schemas.js'

// DECISIONS §10. Readiness reads crew records and learning alike: every operation needs both products.
const tags = ['readiness']
const bothProducts = async (request: FastifyRequest) => assertProducts(request.actor, PRODUCTS)
const RULES =
  'The rules are in docs/readiness.md: documents the role requires (missing, rejected, expired, expiring during the assignment ' +
  'or its validity margin, expiring soon after it, unverified) and registrations not passed (overdue or not yet).'

const context = (request: FastifyRequest, asOf: string | undefined, { config }: ModuleDeps): VerdictContext => ({
  orgId: request.actor.orgId,
  asOf: asOf ?? todayUtc(),
  defaultWindowDays: config.expiringSoonDays,
})

/** Relative to /api/v1/learn/assignments/:assignment_id/readiness (and its alias /api/v1/assignments/…). */
export const assignmentReadinessRoutes: ModulePlugin = (app, deps) => {
  app.get(
    '',
    {
      onRequest: bothProducts,
      schema: {
        tags,
        summary: 'Can this person sail the whole assignment?',
        description: `The verdict on one assignment as of a date (default today, UTC), through its endDate or, when it has none, as_of + openEndedHorizonDays. Ready means no blockers. Visible as the assignment is: admins and office admins any of the organization, others their own (404 otherwise). Needs both products. ${RULES}`,
        params: AssignmentParams,
        querystring: AsOfQuery,
        response: { 200: Readiness },
      },
    },
    async (request) => {
      const verdict = await assignmentReadiness(
        deps.db,
        context(request, request.query.as_of, deps),
        request.params.assignment_id,
        rowOwner(request.actor, MANAGERS),
      )
      if (!verdict) throw notFound('Assignment')
      return verdict
    },
  )
}

/** Relative to /api/v1/learn/readiness. */
export const fleetReadinessRoutes: ModulePlugin = (app, deps) => {
  app.get(
    '',
    {
      onRequest: bothProducts,
      config: { roles: STAFF },
      schema: {
        tags,
        summary: 'Readiness of the fleet',
        description: `One item per assignment, each agreeing exactly with the assignment's own verdict for the same as_of; ordered by startDate (none last), then assignmentId. Staff only; office employees see their own assignments. By default only assignments active on as_of. Needs both products. ${RULES}`,
        querystring: FleetQuery,
        response: { 200: FleetPage },
      },
    },
    async (request, reply) => {
      const verdicts = context(request, request.query.as_of, deps)
      return listOrCsv(request, reply, {
        name: 'readiness',
        item: FleetItem,
        query: request.query,
        list: (query) => fleetReadiness(deps.db, verdicts, query, rowOwner(request.actor, MANAGERS)),
      })
    },
  )
}

/** Relative to /api/v1/shared/ships/:ship_id/readiness. */
export const shipReadinessRoutes: ModulePlugin = (app, deps) => {
  app.get(
    '',
    {
      onRequest: bothProducts,
      config: { roles: STAFF },
      schema: {
        tags,
        summary: "Readiness summary of one ship's crew",
        description: `Counts over the ship's assignments active on as_of (default today, UTC): how many are ready, how many not, and per code how many assignments have it. Staff only. Needs both products. ${RULES}`,
        params: ShipParams,
        querystring: AsOfQuery,
        response: { 200: ShipReadiness },
      },
    },
    async (request) => {
      const summary = await shipReadiness(deps.db, context(request, request.query.as_of, deps), request.params.ship_id)
      if (!summary) throw notFound('Ship')
      return summary
    },
  )
}
