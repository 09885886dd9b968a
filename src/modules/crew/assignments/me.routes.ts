import { findOrganization, findUser, toUser } from '../../accounts/users/users.queries.js'
import type { ModulePlugin } from '../../types.js'
import { currentUserAssignments } from './assignments.queries.js'
import { Me } from './me.schemas.js'

const tags = ['users']

/** The current user with their organization and assignments: GET /me, served under two prefixes (DECISIONS §8); with the assignments, whose rows it reads. */
export const currentUserRoutes: ModulePlugin = (app, { db }) => {
  const me = async (request: { actor: { orgId: string; userId: string } }) => {
    const { orgId, userId } = request.actor
    const [user, organization, assignments] = await Promise.all([
      findUser(db, orgId, userId),
      findOrganization(db, orgId),
      currentUserAssignments(db, orgId, userId),
    ])
    return { user: toUser(user!), organization, assignments }
  }
  app.get(
    '/me',
    {
      schema: {
        operationId: 'getCurrentUser',
        description: 'The caller with their organization and current assignments (also served at /api/v1/shared/users/me).',
        tags,
        summary: 'The current user',
        response: { 200: Me },
      },
    },
    me,
  )
}
