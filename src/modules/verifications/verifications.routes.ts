import { assertCanReachUser, STAFF } from '../../lib/access.js'
import { notFound } from '../../lib/errors.js'
import type { Module } from '../types.js'
import { findProfileState, listReviewQueue, userVerifications } from './verifications.queries.js'
import { ProfileVerification, ReviewQueuePage, ReviewQueueQuery, UserParams } from './verifications.schemas.js'

const tags = ['verifications']

export const verificationsRoutes: Module = (app, { db }) => {
  app.get(
    '/api/v1/crew/users/:user_id/verification',
    { schema: { tags, summary: "A user's profile verification", params: UserParams, response: { 200: ProfileVerification } } },
    async (request) => {
      const { actor, params } = request
      assertCanReachUser(actor, params.user_id)
      // One snapshot, so the state always agrees with the items listed.
      return db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => {
          const state = await findProfileState(trx, actor.orgId, params.user_id)
          if (!state) throw notFound('User')
          return { state, items: await userVerifications(trx, actor.orgId, params.user_id) }
        })
    },
  )

  app.get(
    '/api/v1/crew/verifications',
    {
      config: { roles: STAFF },
      schema: {
        tags,
        summary: 'The review queue, oldest submission first',
        querystring: ReviewQueueQuery,
        response: { 200: ReviewQueuePage },
      },
    },
    (request) => listReviewQueue(db, request.actor.orgId, request.query),
  )
}
