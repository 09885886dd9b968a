import Type from 'typebox'
import { NoContent } from '../../lib/schemas.js'
import type { Module } from '../types.js'
import { RECORD_WRITERS, reachUser } from '../verifications/records.js'
import { removeRecord } from '../verifications/records.service.js'
import { registerReviewRoutes } from '../verifications/review.routes.js'
import { UserParams } from '../verifications/verifications.schemas.js'
import { listExperience } from './experience.queries.js'
import { Experience, ExperienceCreate, ExperienceParams, ExperienceUpdate, experienceKind } from './experience.schemas.js'
import { createExperience, editExperience } from './experience.service.js'

const tags = [experienceKind.tag]

export const experienceRoutes: Module = (app, { db }) => {
  app.post(
    '/api/v1/crew/users/:user_id/experience',
    { config: { roles: RECORD_WRITERS }, schema: { tags, params: UserParams, body: ExperienceCreate, response: { 201: Experience } } },
    async (request, reply) => {
      const { actor, params } = request
      await reachUser(db, actor, params.user_id)
      return reply.status(201).send(await createExperience(db, actor, params.user_id, request.body))
    },
  )

  app.get(
    '/api/v1/crew/users/:user_id/experience',
    { schema: { tags, params: UserParams, response: { 200: Type.Array(Experience) } } },
    async (request) => {
      await reachUser(db, request.actor, request.params.user_id)
      return listExperience(db, request.actor.orgId, request.params.user_id)
    },
  )

  app.patch(
    '/api/v1/crew/experience/:experience_id',
    {
      config: { roles: RECORD_WRITERS },
      schema: { tags, params: ExperienceParams, body: ExperienceUpdate, response: { 200: Experience } },
    },
    (request) => editExperience(db, request.actor, request.params.experience_id, request.body),
  )

  app.delete(
    '/api/v1/crew/experience/:experience_id',
    { config: { roles: RECORD_WRITERS }, schema: { tags, params: ExperienceParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await removeRecord(db, experienceKind, request.actor, request.params.experience_id)
      return reply.status(204).send(null)
    },
  )

  registerReviewRoutes(app, db, experienceKind)
}
