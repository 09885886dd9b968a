import { assertCanReachUser, STAFF } from '../../../lib/access.js'
import { notFound } from '../../../lib/errors.js'
import type { ModulePlugin } from '../../types.js'
import { UserParams } from '../../accounts/users/users.schemas.js'
import { findProfileState, listReviewQueue, userVerifications } from './verifications.queries.js'
import { ProfileVerification, ReviewQueuePage, ReviewQueueQuery } from './verifications.schemas.js'

const tags = ['verifications']

/** A user's profile rollup (DECISIONS §3): under /api/v1/crew/users/:user_id/verification. */
export const profileVerificationRoutes: ModulePlugin = (app, { db }) => {
  app.get(
    '/',
    {
      schema: {
        operationId: 'getProfileVerification',
        description: 'The rollup state (approved, in_review, action_needed, incomplete) with the verification of every item.',
        tags,
        summary: "A user's profile verification",
        params: UserParams,
        response: { 200: ProfileVerification },
      },
    },
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
}

/** The organization's review queue: under /api/v1/crew/verifications. */
export const reviewQueueRoutes: ModulePlugin = (app, { db }) => {
  app.get(
    '/',
    {
      config: { roles: STAFF },
      schema: {
        operationId: 'listReviewQueue',
        description: 'Staff only. Items awaiting review (or in `status`), oldest submission first, cursor-paged.',
        tags,
        summary: 'The review queue, oldest submission first',
        querystring: ReviewQueueQuery,
        response: { 200: ReviewQueuePage },
      },
    },
    (request) => listReviewQueue(db, request.actor.orgId, request.query),
  )
}
