import Type from 'typebox'
import { RECORD_WRITERS } from '../../../lib/access.js'
import { NoContent } from '../../../lib/schemas.js'
import { listOfUser, reject, removeReviewed, submit, verify } from '../reviewed-records/reviewed-records.service.js'
import type { ModulePlugin } from '../../types.js'
import { UserParams } from '../../accounts/users/users.schemas.js'
import { reviewRouteOptions } from '../reviewed-records/reviewed-records.routes.js'
import { experienceWire, listExperience } from './experience.queries.js'
import { Experience, ExperienceCreate, ExperienceParams, ExperienceUpdate } from './experience.schemas.js'
import { createExperience, editExperience, LABEL, target } from './experience.service.js'

const tags = ['experience']

/** A user's sea experience (DECISIONS §3): under /api/v1/crew/users/:user_id/experience. */
export const userExperienceRoutes: ModulePlugin = (app, { db }) => {
  app.post(
    '/',
    {
      config: { roles: RECORD_WRITERS },
      schema: {
        operationId: 'createExperience',
        summary: 'Add a sea-service record',
        description: "Crew add their own, admins and office admins anyone's. Not in review until submitted.",
        tags,
        params: UserParams,
        body: ExperienceCreate,
        response: { 201: Experience },
      },
    },
    async (request, reply) => {
      return reply.status(201).send(await createExperience(db, request.actor, request.params.user_id, request.body))
    },
  )

  app.get(
    '/',
    {
      schema: {
        operationId: 'listExperience',
        summary: "List a user's sea service",
        description: 'Latest start date first.',
        tags,
        params: UserParams,
        response: { 200: Type.Array(Experience) },
      },
    },
    async (request) => {
      const { actor, params } = request
      return listOfUser(db, actor, params.user_id, () => listExperience(db, actor.orgId, params.user_id))
    },
  )
}

/** One experience row and its review: under /api/v1/crew/experience. */
export const experienceRoutes: ModulePlugin = (app, { db }) => {
  const review = reviewRouteOptions(tags, ExperienceParams, 'Experience')
  const item = (request: { params: { experience_id: string } }) => target(request.params.experience_id)

  app.patch(
    '/:experience_id',
    {
      config: { roles: RECORD_WRITERS },
      schema: {
        operationId: 'updateExperience',
        summary: 'Update a sea-service record',
        description:
          "Crew change their own, admins and office admins anyone's. Only the fields sent change; a change to a verified or rejected record sends it back to review.",
        tags,
        params: ExperienceParams,
        body: ExperienceUpdate,
        response: { 200: Experience },
      },
    },
    (request) => editExperience(db, request.actor, request.params.experience_id, request.body),
  )

  app.delete(
    '/:experience_id',
    {
      config: { roles: RECORD_WRITERS },
      schema: {
        operationId: 'deleteExperience',
        summary: 'Delete a sea-service record',
        description: "Crew delete their own, admins and office admins anyone's.",
        tags,
        params: ExperienceParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await removeReviewed(db, request.actor, 'experiences', item(request), LABEL, experienceWire)
      return reply.status(204).send(null)
    },
  )

  app.post('/:experience_id/submit', review.submit, (request) => submit(db, request.actor, item(request), LABEL))
  app.post('/:experience_id/verify', review.verify, (request) => verify(db, request.actor, item(request), LABEL))
  app.post('/:experience_id/reject', review.reject, (request) => reject(db, request.actor, item(request), LABEL, request.body.reason))
}
