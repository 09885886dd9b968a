import Type from 'typebox'
import { notFound } from '../../lib/errors.js'
import { IdParams, NoContent } from '../../lib/schemas.js'
import type { Module } from '../types.js'
import type { ExpiringKind } from './expiring.js'
import { findExpiring, listExpiring } from './expiring.queries.js'
import { ExpiringListQuery } from './expiring.schemas.js'
import { createExpiring, editExpiring } from './expiring.service.js'
import { ownerScope, RECORD_WRITERS, reachUser } from './records.js'
import { removeRecord } from './records.service.js'
import { registerReviewRoutes } from './review.routes.js'
import { UserParams } from './verifications.schemas.js'

type Body = Record<string, unknown>

/** The routes of identity documents or certificates (DECISIONS §3, §8). */
export const expiringRoutes =
  (kind: ExpiringKind): Module =>
  (app, { db, config }) => {
    const days = config.expiringSoonDays
    const tags = [kind.tag]
    const collection = `/api/v1/crew/users/:user_id/${kind.path}`
    const item = `/api/v1/crew/${kind.path}/:${kind.param}`
    const params = IdParams(kind.param)
    const idOf = (request: { params: unknown }) => (request.params as Record<string, string>)[kind.param]
    const { Item, Create, Update } = kind.schemas

    app.post(
      collection,
      { config: { roles: RECORD_WRITERS }, schema: { tags, params: UserParams, body: Create, response: { 201: Item } } },
      async (request, reply) => {
        const { actor, params } = request
        await reachUser(db, actor, params.user_id)
        return reply.status(201).send(await createExpiring(db, kind, days, actor, params.user_id, request.body as Body))
      },
    )

    app.get(
      collection,
      { schema: { tags, params: UserParams, querystring: ExpiringListQuery, response: { 200: Type.Array(Item) } } },
      async (request) => {
        const { actor, params } = request
        await reachUser(db, actor, params.user_id)
        return listExpiring(db, kind, days, actor.orgId, params.user_id, request.query.expiry_status)
      },
    )

    app.get(item, { schema: { tags, params, response: { 200: Item } } }, async (request) => {
      const found = await findExpiring(db, kind, days, request.actor.orgId, idOf(request), ownerScope(request.actor))
      if (!found) throw notFound(kind.label)
      return found
    })

    app.patch(item, { config: { roles: RECORD_WRITERS }, schema: { tags, params, body: Update, response: { 200: Item } } }, (request) =>
      editExpiring(db, kind, days, request.actor, idOf(request), request.body as Body),
    )

    app.delete(
      item,
      { config: { roles: RECORD_WRITERS }, schema: { tags, params, response: { 204: NoContent } } },
      async (request, reply) => {
        await removeRecord(db, kind, request.actor, idOf(request))
        return reply.status(204).send(null)
      },
    )

    registerReviewRoutes(app, db, kind)
  }
