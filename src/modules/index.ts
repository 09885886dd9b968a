import type { App } from '../app.js'
import { analyticsRoutes } from './analytics/analytics.routes.js'
import { assignmentsRoutes } from './assignments/assignments.routes.js'
import { authRoutes } from './auth/auth.routes.js'
import { certificatesRoutes } from './certificates/certificates.routes.js'
import { coursesRoutes } from './courses/courses.routes.js'
import { curriculumsRoutes } from './curriculums/curriculums.routes.js'
import { experienceRoutes } from './experience/experience.routes.js'
import { healthRoutes } from './health/health.routes.js'
import { identityDocumentsRoutes } from './identity-documents/identity-documents.routes.js'
import { nextOfKinRoutes } from './next-of-kin/next-of-kin.routes.js'
import { registrationsRoutes } from './registrations/registrations.routes.js'
import { rosterRoutes } from './roster/roster.routes.js'
import { shipsRoutes } from './ships/ships.routes.js'
import { ssoBrowserRoutes, ssoSettingsRoutes } from './sso/sso.routes.js'
import type { Module, ModuleDeps } from './types.js'
import { uploadsRoutes } from './uploads/uploads.routes.js'
import { usersRoutes } from './users/users.routes.js'
import { verificationsRoutes } from './verifications/verifications.routes.js'

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
]

/** Modules whose routes are relative to a prefix. */
const prefixed: [string, Module][] = [
  ['/api/v1/shared/organization/sso', ssoSettingsRoutes],
  ['/api/v1/auth/sso', ssoBrowserRoutes],
]

export async function registerModules(app: App, deps: ModuleDeps): Promise<void> {
  for (const register of modules) await register(app, deps)
  for (const [prefix, register] of prefixed) await app.register(async (scoped) => register(scoped, deps), { prefix })
}
