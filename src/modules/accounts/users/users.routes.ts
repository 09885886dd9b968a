import { PRODUCTS } from '../../../db/schema.js'
import { ADMIN, assertCanReachUser, PERMISSIONS, rowOwner } from '../../../lib/access.js'
import { hashPassword } from '../../../lib/auth.js'
import { conflict, notFound } from '../../../lib/errors.js'
import { ErrorBody, NoContent } from '../../../lib/schemas.js'
import type { ModulePlugin } from '../../types.js'
import { linkDepsOf } from '../accounts/accounts.service.js'
import { createUser, findUser, listUsers, toUser, updateUser } from './users.queries.js'
import { CreatedUser, Session, User, UserCreate, UserListQuery, UserPage, UserParams, UserUpdate } from './users.schemas.js'
import { assertNotSelfLockout, createInvitedUser } from './users.service.js'

const tags = ['users']

export const usersRoutes: ModulePlugin = (app, deps) => {
  const { db, actors } = deps
  const linkDeps = linkDepsOf(deps)
  app.get(
    '/me/session',
    {
      schema: {
        operationId: 'getSession',
        description: "Read from the caller's current account, not the token: a role or product change applies at once.",
        tags,
        summary: "The caller's current role, permissions and products",
        response: { 200: Session },
      },
    },
    async (request) => {
      // The actor, not the token: a role or product change made since the token was issued applies at once.
      const { role, products } = request.actor
      return {
        role,
        roles: [role],
        permissions: PERMISSIONS[role],
        featureFlags: PRODUCTS.filter((product) => products.includes(product)),
      }
    },
  )

  app.post(
    '/',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'createUser',
        summary: 'Create a user',
        description:
          'Admins only. The e-mail is unique in the organization (409). Without a password the user is `pending` and the answer carries their `invitation` link (also e-mailed when SMTP is configured).',
        tags,
        body: UserCreate,
        response: { 201: CreatedUser, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { password, ...user } = request.body
      if (!password) return reply.status(201).send(await createInvitedUser(linkDeps(request.log), request.actor, user))
      const created = await createUser(db, request.actor, { ...user, passwordHash: await hashPassword(password) })
      return reply.status(201).send(created)
    },
  )

  app.get(
    '/',
    {
      schema: {
        operationId: 'listUsers',
        summary: 'List users',
        description: 'Staff see every user of the organization, crew only themselves. Cursor-paged; `search` matches name and e-mail.',
        tags,
        querystring: UserListQuery,
        response: { 200: UserPage },
      },
    },
    async (request) => {
      const { actor } = request
      return listUsers(db, actor.orgId, request.query, rowOwner(actor))
    },
  )

  app.get(
    '/:user_id',
    {
      schema: {
        operationId: 'getUser',
        summary: 'Get a user',
        description: "Crew reach only themselves; another organization's user is 404 like a missing one.",
        tags,
        params: UserParams,
        response: { 200: User },
      },
    },
    async (request) => {
      // A UUID is the same in any letter case; the caller's own id is stored lower case.
      assertCanReachUser(request.actor, request.params.user_id)
      const row = await findUser(db, request.actor.orgId, request.params.user_id)
      if (!row) throw notFound('User')
      return toUser(row)
    },
  )

  app.patch(
    '/:user_id',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'updateUser',
        summary: 'Update a user',
        description: 'Admins only. An admin cannot suspend themselves or remove their own admin role (409).',
        tags,
        params: UserParams,
        body: UserUpdate,
        response: { 200: User, 409: ErrorBody },
      },
    },
    async (request) => {
      const { actor, params, body } = request
      assertNotSelfLockout(actor, params.user_id, body)
      const { password, ...fields } = body
      const passwordHash = password === undefined ? undefined : await hashPassword(password)
      const user = await updateUser(db, actor, params.user_id, { ...fields, passwordHash })
      if (!user) throw notFound('User')
      // The database announces the change to every instance; this one need not wait for it.
      actors.changed(user.id)
      return user
    },
  )

  app.delete(
    '/:user_id',
    {
      config: { roles: ADMIN },
      schema: {
        operationId: 'suspendUser',
        description: 'Admins only. The user keeps their records but can no longer sign in; suspending yourself is a 409.',
        tags,
        summary: 'Suspend a user',
        params: UserParams,
        response: { 204: NoContent, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { actor, params } = request
      if (params.user_id.toLowerCase() === actor.userId) throw conflict('You cannot suspend yourself')
      const user = await updateUser(db, actor, params.user_id, { state: 'suspended' })
      if (!user) throw notFound('User')
      actors.changed(user.id)
      return reply.status(204).send(null)
    },
  )
}
