import { ADMIN } from '../../../lib/access.js'
import { IssueList } from '../../../lib/errors.js'
import type { ModulePlugin } from '../../types.js'
import { listRequirements, replaceRequirements } from './requirements.queries.js'
import { Requirements, RequirementsReplace } from './requirements.schemas.js'

const tags = ['requirements']

/**
 * Roles are stored trimmed and must be unique after trimming, case-insensitively (the later duplicate
 * is the 422); a type listed twice in one item counts once.
 */
export function normalizeMatrix(body: RequirementsReplace): Requirements['items'] {
  const issues = new IssueList()
  const seen = new Set<string>()
  const items = body.items.map((item, i) => {
    const role = item.role.trim()
    const key = role.toLowerCase()
    if (role === '') issues.add(['body', 'items', i, 'role'], 'String should have at least 1 character after trimming', 'string_too_short')
    else if (seen.has(key)) issues.add(['body', 'items', i, 'role'], `Role "${role}" is already listed`, 'value_error')
    seen.add(key)
    return {
      role,
      documentTypes: [...new Set(item.documentTypes ?? [])],
      certificateTypes: [...new Set(item.certificateTypes ?? [])],
      minSeaServiceDays: item.minSeaServiceDays ?? null,
    }
  })
  issues.throwIfAny()
  return items
}

/** Routes relative to /api/v1/crew/requirements (DECISIONS §10). */
export const requirementsRoutes: ModulePlugin = (app, { db }) => {
  app.get(
    '',
    {
      schema: {
        tags,
        summary: 'The requirements matrix',
        description:
          'Every role. Per assignment role, the identity document and certificate types a person needs to be ready; ' +
          'an assignment needs the union of the item matching its role (trimmed, case-insensitively) and the "*" item, ' +
          'and the larger of their minSeaServiceDays (null when not set).',
        response: { 200: Requirements },
      },
    },
    async (request) => ({ items: await listRequirements(db, request.actor.orgId) }),
  )

  app.put(
    '',
    {
      config: { roles: ADMIN },
      schema: {
        tags,
        summary: 'Replace the requirements matrix',
        description:
          'Admin only. Replaces the whole matrix at once (at most 200 items); every readiness verdict uses the new one from the next request.',
        body: RequirementsReplace,
        response: { 200: Requirements },
      },
    },
    async (request) => {
      const { actor } = request
      const items = normalizeMatrix(request.body)
      await db.transaction().execute((trx) => replaceRequirements(trx, actor, items))
      return { items }
    },
  )
}
