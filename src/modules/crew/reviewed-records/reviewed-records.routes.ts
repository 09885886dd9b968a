import Type, { type TSchema } from 'typebox'
import { RECORD_WRITERS, rowOwner, STAFF } from '../../../lib/access.js'
import { notFound } from '../../../lib/errors.js'
import { ErrorBody, NoContent } from '../../../lib/schemas.js'
import type { ModulePlugin } from '../../types.js'
import { UserParams } from '../../accounts/users/users.schemas.js'
import { findExpiring, listExpiring } from './reviewed-reads.queries.js'
import { ExpiryListQuery, type RecordKind, RejectBody, Verification } from './reviewed-records.schemas.js'
import { createExpiring, editExpiring, listOfUser, removeExpiring, reviewExpiring } from './reviewed-records.service.js'

type Body = Record<string, unknown>
type IdRequest = { params: unknown }

/** A kind's routes where the wiring table (modules/index.ts) mounts them: crew records are a crew product's. */
export const recordKindRegistrations = (kind: RecordKind) => {
  const { user, item } = recordKindRoutes(kind)
  return [
    { plugin: user, prefix: kind.paths.user, product: 'crew' as const },
    { plugin: item, prefix: kind.paths.item, product: 'crew' as const },
  ]
}

/**
 * The routes of one kind of expiring record (DECISIONS §3): `user` (a user's records) and `item`
 * (one record and its review), under the kind's paths.
 */
function recordKindRoutes(kind: RecordKind): { user: ModulePlugin; item: ModulePlugin } {
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
      // The record's JSON as its statement built it (for its event too): sent as it is, not serialized again.
      async (request, reply) => {
        const json = await createExpiring(db, kind, request.actor, request.params.user_id, request.body as Body, days)
        return reply
          .status(201)
          .type('application/json; charset=utf-8')
          .send(json as never)
      },
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
        await removeExpiring(db, kind, request.actor, idOf(request), days)
        return reply.status(204).send(null)
      },
    )
    app.post(`${idPath}/submit`, review.submit, (request) => reviewExpiring(db, kind, request.actor, idOf(request), 'submit'))
    app.post(`${idPath}/verify`, review.verify, (request) => reviewExpiring(db, kind, request.actor, idOf(request), 'verify'))
    app.post(`${idPath}/reject`, review.reject, (request) =>
      reviewExpiring(db, kind, request.actor, idOf(request), 'reject', request.body.reason),
    )
  }

  return { user, item }
}

/**
 * The options of an item's review routes, POST …/{id}/submit, /verify and /reject (DECISIONS §3, §8),
 * for the item routes of documents, certificates and experience to declare with their own paths.
 * `name` (e.g. `IdentityDocument`) makes their operation ids: `submitIdentityDocument`, ….
 */
export const reviewRouteOptions = <P extends TSchema>(tags: string[], params: P, name: string) => {
  const response = { 200: Verification, 409: ErrorBody }
  return {
    submit: {
      config: { roles: RECORD_WRITERS },
      schema: {
        operationId: `submit${name}`,
        tags,
        summary: 'Submit for review',
        description:
          "Crew submit their own, admins and office admins anyone's. Moves the verification from not submitted or rejected to pending; from any other state it is a 409.",
        params,
        response,
      },
    },
    verify: {
      config: { roles: STAFF },
      schema: {
        operationId: `verify${name}`,
        tags,
        summary: 'Verify',
        description: 'Staff only. Moves a pending verification to verified; from any other state it is a 409.',
        params,
        response,
      },
    },
    reject: {
      config: { roles: STAFF },
      schema: {
        operationId: `reject${name}`,
        tags,
        summary: 'Reject with a reason',
        description: 'Staff only. Moves a pending verification to rejected with the reason; from any other state it is a 409.',
        params,
        body: RejectBody,
        response,
      },
    },
  }
}
