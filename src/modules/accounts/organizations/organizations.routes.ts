import { ADMIN } from '../../../lib/access.js'
import type { ModulePlugin } from '../../types.js'
import { findOrganization, updateOrganization } from './organizations.queries.js'
import { Organization, OrganizationUpdate } from './organizations.schemas.js'
import { withDefaults } from './settings.js'

const tags = ['organization']

type OrganizationRow = NonNullable<Awaited<ReturnType<typeof findOrganization>>>

/** Routes relative to /api/v1/shared/organization (DECISIONS §10). */
export const organizationRoutes: ModulePlugin = (app, { db, config }) => {
  const toOrganization = (row: OrganizationRow): Organization => ({
    id: row.id,
    name: row.name,
    domain: row.domain,
    products: row.products,
    settings: withDefaults(row.settings, config.expiringSoonDays),
  })

  app.get(
    '',
    {
      schema: {
        tags,
        summary: "The caller's organization",
        description: 'Every role. Settings come with their defaults filled in.',
        response: { 200: Organization },
      },
    },
    async (request) => toOrganization((await findOrganization(db, request.actor.orgId))!),
  )

  app.patch(
    '',
    {
      config: { roles: ADMIN },
      schema: {
        tags,
        summary: "Update the organization's name and settings",
        description:
          'Admin only. Only the settings keys sent change; expiryWindowDays and validityMarginDays merge entry by entry, ' +
          'and null (a key or an entry) goes back to the default. Applies at once to every expiry status and readiness verdict.',
        body: OrganizationUpdate,
        response: { 200: Organization },
      },
    },
    async ({ actor, body }) => toOrganization(await updateOrganization(db, actor, body, config.expiringSoonDays)),
  )
}
