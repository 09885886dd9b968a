import type { App } from '../app.js'
import { analyticsRoutes } from './analytics/analytics.routes.js'
import { assignmentsRoutes } from './assignments/assignments.routes.js'
import { authRoutes } from './auth/auth.routes.js'
import { certificatesRoutes } from './certificates/certificates.routes.js'
import { coursesRoutes } from './courses/courses.routes.js'
import { curriculumsRoutes } from './curriculums/curriculums.routes.js'
import { expiringRoutes } from './expiring/expiring.routes.js'
import { experienceRoutes } from './experience/experience.routes.js'
import { healthRoutes } from './health/health.routes.js'
import { identityDocumentsRoutes } from './identity-documents/identity-documents.routes.js'
import { nextOfKinRoutes } from './next-of-kin/next-of-kin.routes.js'
import { organizationRoutes } from './organizations/organizations.routes.js'
import { assignmentReadinessRoutes, fleetReadinessRoutes, shipReadinessRoutes } from './readiness/readiness.routes.js'
import { registrationsRoutes } from './registrations/registrations.routes.js'
import { requirementsRoutes } from './requirements/requirements.routes.js'
import { rosterRoutes } from './roster/roster.routes.js'
import { shipsRoutes } from './ships/ships.routes.js'
import type { Module, ModuleDeps } from './types.js'
import { uploadsRoutes } from './uploads/uploads.routes.js'
import { usersRoutes } from './users/users.routes.js'
import { verificationsRoutes } from './verifications/verifications.routes.js'

/**
 * Plugins whose routes are relative to the prefix they are mounted at (params allowed in a prefix).
 * An alias mounts the same plugin at a second prefix, kept out of the OpenAPI document. The product
 * gate follows the prefix (src/lib/access.ts); readiness routes also need both products.
 */
const mounts: { plugin: Module; prefix: string; aliases?: string[] }[] = [
  { plugin: organizationRoutes, prefix: '/api/v1/shared/organization' },
  { plugin: requirementsRoutes, prefix: '/api/v1/crew/requirements' },
  {
    plugin: assignmentReadinessRoutes,
    prefix: '/api/v1/learn/assignments/:assignment_id/readiness',
    aliases: ['/api/v1/assignments/:assignment_id/readiness'],
  },
  { plugin: fleetReadinessRoutes, prefix: '/api/v1/learn/readiness' },
  { plugin: shipReadinessRoutes, prefix: '/api/v1/shared/ships/:ship_id/readiness' },
  { plugin: expiringRoutes, prefix: '/api/v1/crew/expiring' },
]

const mountedModules: Module = async (app, deps) => {
  for (const { plugin, prefix, aliases = [] } of mounts) {
    await app.register(async (scoped) => plugin(scoped, deps), { prefix })
    for (const alias of aliases) {
      const hidden = async (scoped: App) => {
        scoped.addHook('onRoute', (route) => {
          route.schema = { ...route.schema, hide: true }
        })
        await plugin(scoped, deps)
      }
      await app.register(hidden, { prefix: alias })
    }
  }
}

/** The one wiring file: every feature module, in one list. */
const modules = [
  healthRoutes,
  authRoutes,
  usersRoutes,
  shipsRoutes,
  uploadsRoutes,
  identityDocumentsRoutes,
  certificatesRoutes,
  experienceRoutes,
  nextOfKinRoutes,
  verificationsRoutes,
  rosterRoutes,
  coursesRoutes,
  curriculumsRoutes,
  assignmentsRoutes,
  registrationsRoutes,
  analyticsRoutes,
  mountedModules,
]

export async function registerModules(app: App, deps: ModuleDeps): Promise<void> {
  for (const register of modules) await register(app, deps)
}
