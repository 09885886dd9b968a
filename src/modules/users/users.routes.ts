import { ADMIN, assertCanReachUser, PERMISSIONS } from '../../lib/access.js'
import { hashPassword } from '../../lib/auth.js'
import { conflict, notFound } from '../../lib/errors.js'
import { NoContent } from '../../lib/schemas.js'
import type { Module } from '../types.js'
import {
  currentUserAssignments,
  findOrganization,
  findUser,
  insertUser,
  listUsers,
  toUser,
  type UserChanges,
  updateUser,
} from './users.queries.js'
import { Me, Session, User, UserCreate, UserListQuery, UserPage, UserParams, UserUpdate } from './users.schemas.js'

const tags = ['users']

export const usersRoutes: Module = (app, { db }) => {
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
      return listUsers(db, actor.orgId, request.query, actor.role === 'crew' ? actor.userId : undefined)
    },
  )

  app.get('/api/v1/shared/users/:user_id', { schema: { tags, params: UserParams, response: { 200: User } } }, async (request) => {
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
      if (params.user_id === actor.userId && ((body.state && body.state !== 'active') || (body.role && body.role !== 'admin'))) {
        throw conflict('You cannot suspend yourself or remove your own admin role')
      }
      const current = await findUser(db, actor.orgId, params.user_id)
      if (!current) throw notFound('User')
      const changes: UserChanges = {
        email: body.email,
        first_name: body.firstName,
        last_name: body.lastName,
        role: body.role,
        state: body.state,
      }
      if (body.password) {
        changes.password_hash = await hashPassword(body.password)
        // A pending user becomes able to log in once an admin sets a password.
        if (current.state === 'pending' && !body.state) changes.state = 'active'
      }
      if (changes.state === 'active' && !current.password_hash && !body.password) {
        throw conflict('Set a password before activating this user')
      }
      const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as UserChanges
      const row = await updateUser(db, actor.orgId, params.user_id, defined)
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
      if (params.user_id === actor.userId) throw conflict('You cannot suspend yourself')
      const row = await updateUser(db, actor.orgId, params.user_id, {
        state: 'suspended',
      })
      if (!row) throw notFound('User')
      return reply.status(204).send(null)
    },
  )
}
