import { MANAGERS, rowOwner } from '../../../lib/access.js'
import { listOrCsv } from '../../../lib/csv.js'
import { notFound } from '../../../lib/errors.js'
import { ErrorBody } from '../../../lib/schemas.js'
import type { ModulePlugin } from '../../types.js'
import { findRegistration, listRegistrations, toRegistration } from './registrations.queries.js'
import {
  AttemptCreate,
  EXPANDED,
  Registration,
  RegistrationListQuery,
  RegistrationPage,
  RegistrationParams,
  RegistrationQuery,
} from './registrations.schemas.js'
import { submitAttempt } from './registrations.service.js'

const tags = ['registrations']

/** The list and attempts. */
export const registrationsRoutes: ModulePlugin = (app, { db, config }) => {
  app.get(
    '/',
    {
      schema: {
        operationId: 'listRegistrations',
        summary: 'List registrations',
        description:
          "Filter by assignment, course and status; `search` matches the course title, the user's name or the ship's name; cursor-paged, or every match as CSV.",
        tags,
        querystring: RegistrationListQuery,
        response: { 200: RegistrationPage },
      },
    },
    async (request, reply) =>
      listOrCsv(request, reply, {
        name: 'registrations',
        item: Registration,
        omit: request.query.expand ? [] : EXPANDED,
        query: request.query,
        list: (query) => listRegistrations(db, request.actor.orgId, query, rowOwner(request.actor, MANAGERS)),
      }),
  )

  app.post(
    '/:registration_id/attempts',
    {
      config: { roles: ['admin', 'crew'] },
      schema: {
        operationId: 'recordAttempt',
        summary: 'Record an attempt',
        description:
          'Admins and crew. A new `attemptId` answers 201; replaying the same attempt answers 200 and changes nothing; the same id with other content is a 409. A course with a package (imported) records its results from its launched sessions only: 409.',
        tags,
        params: RegistrationParams,
        body: AttemptCreate,
        response: { 201: Registration, 200: Registration, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { actor, params, body } = request
      // Crew record their own attempts; an admin may record anyone's.
      const { registration, created } = await submitAttempt(
        db,
        actor,
        params.registration_id,
        rowOwner(actor),
        body,
        config.expiringSoonDays,
      )
      return reply.status(created ? 201 : 200).send(toRegistration(registration))
    },
  )
}

/** One registration: also served at the older un-namespaced prefix (DECISIONS §8). */
export const registrationReadRoutes: ModulePlugin = (app, { db }) => {
  app.get(
    '/:registration_id',
    {
      schema: {
        operationId: 'getRegistration',
        summary: 'Get a registration',
        description: 'With its attempts; `expand=true` adds the user, course and ship names.',
        tags,
        params: RegistrationParams,
        querystring: RegistrationQuery,
        response: { 200: Registration },
      },
    },
    async (request) => {
      const { actor, params, query } = request
      const row = await findRegistration(db, actor.orgId, params.registration_id, {
        assigneeId: rowOwner(actor, MANAGERS),
        expand: query.expand,
      })
      if (!row) throw notFound('Registration')
      return toRegistration(row)
    },
  )
}
