import { MANAGERS, rowOwner } from '../../../lib/access.js'
import { notFound } from '../../../lib/errors.js'
import { ErrorBody } from '../../../lib/schemas.js'
import { findRegistration } from '../registrations/registrations.queries.js'
import { Registration } from '../registrations/registrations.schemas.js'
import {
  Launch,
  LaunchCreate,
  LearningSession,
  LearningSessionPage,
  RegistrationIdParams,
  SessionIdParams,
  SessionListQuery,
  Waive,
} from './launch.schemas.js'
import { launch, waive } from './launch.service.js'
import { listSessions } from './sessions.queries.js'
import { abandonSession } from './sessions.service.js'
import type { StandardsPlugin } from './standard.js'

const tags = ['launch']

/** Launch, sessions, waive and abandon (DECISIONS §13.4), under /api/v1/learn. */
export const launchRoutes: StandardsPlugin = (app, deps) => {
  const { db } = deps
  app.post(
    '/registrations/:registration_id/launch',
    {
      config: { roles: ['admin', 'office_admin', 'crew'] },
      schema: {
        operationId: 'launchRegistration',
        summary: 'Launch a course',
        description:
          'Crew launch their own registrations; admins and office admins any of the organization. Abandons the session still open, opens a new one and answers the URL to open: for cmi5 the AU with its launch parameters (LMS.LaunchData and `launched` are written first), for SCORM the player page. Both run on the content origin. A course without a package: 409.',
        tags,
        params: RegistrationIdParams,
        body: LaunchCreate,
        response: { 201: Launch, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { actor, params, body } = request
      return reply.status(201).send(await launch(deps, actor, params.registration_id, rowOwner(actor, MANAGERS), body))
    },
  )

  app.get(
    '/registrations/:registration_id/sessions',
    {
      schema: {
        operationId: 'listLearningSessions',
        summary: "List a registration's sessions",
        description: 'Newest first. Each ended session (terminated or abandoned) is one attempt of the registration.',
        tags,
        params: RegistrationIdParams,
        querystring: SessionListQuery,
        response: { 200: LearningSessionPage },
      },
    },
    async (request) => {
      const { actor, params, query } = request
      const owner = rowOwner(actor, MANAGERS)
      if (!(await findRegistration(db, actor.orgId, params.registration_id, { assigneeId: owner, expand: false })))
        throw notFound('Registration')
      return listSessions(db, actor.orgId, params.registration_id, owner, query)
    },
  )

  app.post(
    '/registrations/:registration_id/waive',
    {
      config: { roles: MANAGERS },
      schema: {
        operationId: 'waiveAu',
        summary: 'Waive an AU',
        description:
          "Admins and office admins. Writes cmi5's `waived` in a session of its own, then `satisfied` where that completes a block or the course, which passes the registration. An AU is waived once per registration (409).",
        tags,
        params: RegistrationIdParams,
        body: Waive,
        response: { 200: Registration, 409: ErrorBody },
      },
    },
    async (request) => waive(deps, request.actor, request.params.registration_id, request.body),
  )

  app.post(
    '/sessions/:session_id/abandon',
    {
      config: { roles: MANAGERS },
      schema: {
        operationId: 'abandonLearningSession',
        summary: 'Abandon a session',
        description:
          "Admins and office admins. Ends an open session as cmi5's `abandoned`, counting it as an attempt. An ended session: 409.",
        tags,
        params: SessionIdParams,
        response: { 200: LearningSession, 409: ErrorBody },
      },
    },
    async (request) => abandonSession(deps, request.actor, request.params.session_id),
  )
}
