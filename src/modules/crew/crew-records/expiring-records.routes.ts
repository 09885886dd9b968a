import Type from 'typebox'
import { RECORD_WRITERS, rowOwner } from '../../../lib/access.js'
import { notFound } from '../../../lib/errors.js'
import { NoContent } from '../../../lib/schemas.js'
import type { ModulePlugin } from '../../types.js'
import { UserParams } from '../../accounts/users/users.schemas.js'
import { reviewRouteOptions } from '../verifications/review.routes.js'
import { reject, submit, verify } from '../verifications/verifications.service.js'
import { ExpiryListQuery } from './crew-records.schemas.js'
import { listOfUser, removeReviewed } from './crew-records.service.js'
import { type ExpiringKind, targetOf } from './expiring-records.js'
import { expiringWire, findExpiring, listExpiring } from './expiring-records.queries.js'
import { createExpiring, editExpiring } from './expiring-records.service.js'

type Body = Record<string, unknown>
type IdRequest = { params: unknown }

/**
 * The routes of one kind of expiring record (DECISIONS §3): `user` under
 * /api/v1/crew/users/:user_id/<records>, `item` (one record and its review) under /api/v1/crew/<records>.
 */
export function expiringRecordRoutes(kind: ExpiringKind): { user: ModulePlugin; item: ModulePlugin } {
  const { api } = kind
  const tags = [api.tag]
  const idPath = `/:${api.idParam}`
  const idOf = (request: IdRequest) => (request.params as Record<string, string>)[api.idParam]

  const user: ModulePlugin = (app, { db, config }) => {
    const days = config.expiringSoonDays
    app.post(
      '/',
      {
        config: { roles: RECORD_WRITERS },
        schema: {
          operationId: `create${api.singular}`,
          summary: `Add ${api.phrase.one}`,
          description: `Crew add their own, admins and office admins anyone's. Optional \`uploadId\` links a finalized upload; the ${api.phrase.short} awaits review from the start.`,
          tags,
          params: UserParams,
          body: api.create,
          response: { 201: api.record },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createExpiring(db, kind, request.actor, request.params.user_id, request.body as Body, days)),
    )
    app.get(
      '/',
      {
        schema: {
          operationId: `list${api.plural}`,
          summary: `List a user's ${api.phrase.many}`,
          description: 'Filter by `expiry_status` (valid, expiring_soon, expired).',
          tags,
          params: UserParams,
          querystring: ExpiryListQuery,
          response: { 200: Type.Array(api.record) },
        },
      },
      async (request) => {
        const { actor, params } = request
        return listOfUser(db, actor, params.user_id, () => listExpiring(db, kind, actor.orgId, days, params.user_id, request.query))
      },
    )
  }

  const item: ModulePlugin = (app, { db, config }) => {
    const days = config.expiringSoonDays
    const review = reviewRouteOptions(tags, api.params, api.singular)
    const target = (request: IdRequest) => targetOf(kind, idOf(request))
    const one = (operationId: string, summary: string, description: string) => ({
      operationId: `${operationId}${api.singular}`,
      summary: `${summary} ${api.phrase.one}`,
      description,
      tags,
      params: api.params,
    })
    app.get(
      idPath,
      {
        schema: {
          ...one('get', 'Get', `Crew reach only their own; another organization's ${api.phrase.short} is 404.`),
          response: { 200: api.record },
        },
      },
      async (request) => {
        const found = await findExpiring(db, kind, request.actor.orgId, days, idOf(request), rowOwner(request.actor))
        if (!found) throw notFound(kind.label)
        return found
      },
    )
    const changes = `Crew change their own, admins and office admins anyone's. Only the fields sent change; a change to a verified or rejected ${api.phrase.short} sends it back to review.`
    app.patch(
      idPath,
      {
        config: { roles: RECORD_WRITERS },
        schema: { ...one('update', 'Update', changes), body: api.update, response: { 200: api.record } },
      },
      (request) => editExpiring(db, kind, request.actor, idOf(request), request.body as Body, days),
    )
    app.delete(
      idPath,
      {
        config: { roles: RECORD_WRITERS },
        schema: { ...one('delete', 'Delete', "Crew delete their own, admins and office admins anyone's."), response: { 204: NoContent } },
      },
      async (request, reply) => {
        await removeReviewed(db, request.actor, kind.table, target(request), kind.label, expiringWire(kind, request.actor.orgId, days))
        return reply.status(204).send(null)
      },
    )
    app.post(`${idPath}/submit`, review.submit, (request) => submit(db, request.actor, target(request), kind.label))
    app.post(`${idPath}/verify`, review.verify, (request) => verify(db, request.actor, target(request), kind.label))
    app.post(`${idPath}/reject`, review.reject, (request) => reject(db, request.actor, target(request), kind.label, request.body.reason))
  }

  return { user, item }
}
