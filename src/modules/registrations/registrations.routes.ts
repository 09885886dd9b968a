import { MANAGERS, rowOwner } from '../../lib/access.js'
import { notFound } from '../../lib/errors.js'
import type { Module } from '../types.js'
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

export const registrationsRoutes: Module = (app, { db }) => {
  app.get(
    '/api/v1/learn/registrations',
    { schema: { tags, querystring: RegistrationListQuery, response: { 200: RegistrationPage } } },
    async (request) => listRegistrations(db, request.actor.orgId, request.query, rowOwner(request.actor, MANAGERS)),
  )

  // The un-namespaced form is still used by older clients (DECISIONS §8).
  for (const url of ['/api/v1/learn/registrations/:registration_id', '/api/v1/registrations/:registration_id']) {
    app.get(
      url,
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

  app.post(
    '/api/v1/learn/registrations/:registration_id/attempts',
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
