import { MANAGERS, rowOwner } from '../../lib/access.js'
import { notFound } from '../../lib/errors.js'
import type { ModulePlugin } from '../types.js'
import { findRegistration, listRegistrations, toRegistration } from './registrations.queries.js'
import {
  AttemptCreate,
  Registration,
  RegistrationListQuery,
  RegistrationPage,
  RegistrationParams,
  RegistrationQuery,
} from './registrations.schemas.js'
import { submitAttempt } from './registrations.service.js'

const tags = ['registrations']

/** The list and attempts. */
export const registrationsRoutes: ModulePlugin = (app, { db }) => {
  app.get('/', { schema: { tags, querystring: RegistrationListQuery, response: { 200: RegistrationPage } } }, async (request) =>
    listRegistrations(db, request.actor.orgId, request.query, rowOwner(request.actor, MANAGERS)),
  )

  app.post(
    '/:registration_id/attempts',
    {
      config: { roles: ['admin', 'crew'] },
      schema: {
        tags,
        summary: 'Record an attempt (201; a replay of the same attemptId answers 200 and changes nothing)',
        params: RegistrationParams,
        body: AttemptCreate,
        response: { 201: Registration, 200: Registration },
      },
    },
    async (request, reply) => {
      const { actor, params, body } = request
      // Crew record their own attempts; an admin may record anyone's.
      const { registration, created } = await submitAttempt(db, actor.orgId, params.registration_id, rowOwner(actor), body)
      return reply.status(created ? 201 : 200).send(toRegistration(registration))
    },
  )
}

/** One registration: also served at the older un-namespaced prefix (DECISIONS §8). */
export const registrationReadRoutes: ModulePlugin = (app, { db }) => {
  app.get(
    '/:registration_id',
    { schema: { tags, params: RegistrationParams, querystring: RegistrationQuery, response: { 200: Registration } } },
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
