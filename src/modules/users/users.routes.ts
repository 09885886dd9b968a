import { ADMIN, assertCanReachUser, PERMISSIONS, rowOwner } from '../../lib/access.js'
import { hashPassword } from '../../lib/auth.js'
import { conflict, notFound } from '../../lib/errors.js'
import { NoContent } from '../../lib/schemas.js'
import type { Module } from '../types.js'
import { currentUserAssignments, findOrganization, findUser, insertUser, listUsers, toUser, updateUser } from './users.queries.js'
import { Me, Session, User, UserCreate, UserListQuery, UserPage, UserParams, UserUpdate } from './users.schemas.js'
import { assertNotSelfLockout, userChanges } from './users.service.js'

const tags = ['users']

export const usersRoutes: Module = (app, { db, actors }) => {
  const me = async (request: { actor: { orgId: string; userId: string } }) => {
    const { orgId, userId } = request.actor
    const [user, organization, assignments] = await Promise.all([
      findUser(db, orgId, userId),
      findOrganization(db, orgId),
      currentUserAssignments(db, orgId, userId),
    ])
    return { user: toUser(user!), organization, assignments }
  }
  for (const url of ['/api/v1/users/me', '/api/v1/shared/users/me']) {
    app.get(url, { schema: { tags, summary: 'The current user', response: { 200: Me } } }, me)
  }

  app.get(
    '/api/v1/shared/users/me/session',
    {
      schema: {
        tags,
        summary: 'The session, from the token',
        response: { 200: Session },
      },
    },
    async (request) => {
      const { role, products } = request.claims
      return {
        role,
        roles: [role],
        permissions: PERMISSIONS[role],
        featureFlags: {
          learn: products.includes('learn'),
          crew: products.includes('crew'),
        },
      }
    },
  )

  app.post(
    '/api/v1/shared/users',
    {
      config: { roles: ADMIN },
      schema: { tags, body: UserCreate, response: { 201: User } },
    },
    async (request, reply) => {
      const { password, ...user } = request.body
      const row = await insertUser(db, request.actor.orgId, {
        ...user,
        passwordHash: password ? await hashPassword(password) : null,
      })
      return reply.status(201).send(toUser(row))
    },
  )

  app.get(
    '/api/v1/shared/users',
    {
      schema: { tags, querystring: UserListQuery, response: { 200: UserPage } },
    },
    async (request) => {
      const { actor } = request
      return listUsers(db, actor.orgId, request.query, rowOwner(actor))
    },
  )

  app.get('/api/v1/shared/users/:user_id', { schema: { tags, params: UserParams, response: { 200: User } } }, async (request) => {
    // A UUID is the same in any letter case; the caller's own id is stored lower case.
    assertCanReachUser(request.actor, request.params.user_id)
    const row = await findUser(db, request.actor.orgId, request.params.user_id)
    if (!row) throw notFound('User')
    return toUser(row)
  })

  app.patch(
    '/api/v1/shared/users/:user_id',
    {
      config: { roles: ADMIN },
      schema: {
        tags,
        params: UserParams,
        body: UserUpdate,
        response: { 200: User },
      },
    },
    async (request) => {
      const { actor, params, body } = request
      assertNotSelfLockout(actor, params.user_id, body)
      const current = await findUser(db, actor.orgId, params.user_id)
      if (!current) throw notFound('User')
      const row = await updateUser(db, actor.orgId, params.user_id, await userChanges(current, body))
      // The database announces the change to every instance; this one need not wait for it.
      actors.changed(current.id)
      return toUser(row!)
    },
  )

  app.delete(
    '/api/v1/shared/users/:user_id',
    {
      config: { roles: ADMIN },
      schema: {
        tags,
        summary: 'Suspend a user',
        params: UserParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { actor, params } = request
      if (params.user_id.toLowerCase() === actor.userId) throw conflict('You cannot suspend yourself')
      const row = await updateUser(db, actor.orgId, params.user_id, {
        state: 'suspended',
      })
      if (!row) throw notFound('User')
      actors.changed(row.id)
      return reply.status(204).send(null)
    },
  )
}
