import type { App } from '../app.js'
import { analyticsRoutes } from './analytics/analytics.routes.js'
import { assignmentsRoutes } from './assignments/assignments.routes.js'
import { authRoutes } from './auth/auth.routes.js'
import { certificateRoutes, userCertificatesRoutes } from './certificates/certificates.routes.js'
import { coursesRoutes } from './courses/courses.routes.js'
import { curriculumsRoutes } from './curriculums/curriculums.routes.js'
import { experienceRoutes, userExperienceRoutes } from './experience/experience.routes.js'
import { healthRoutes } from './health/health.routes.js'
import { identityDocumentRoutes, userIdentityDocumentsRoutes } from './identity-documents/identity-documents.routes.js'
import { nextOfKinRoutes, userNextOfKinRoutes } from './next-of-kin/next-of-kin.routes.js'
import { registrationsRoutes } from './registrations/registrations.routes.js'
import { rosterRoutes } from './roster/roster.routes.js'
import { shipsRoutes } from './ships/ships.routes.js'
import type { Module, ModuleDeps, ModulePlugin } from './types.js'
import { uploadsRoutes } from './uploads/uploads.routes.js'
import { usersRoutes } from './users/users.routes.js'
import { profileVerificationRoutes, reviewQueueRoutes } from './verifications/verifications.routes.js'

/** A plugin registered under its prefix (until this file registers every module by prefix). */
const under =
  (prefix: string, plugin: ModulePlugin): Module =>
  async (app, deps) => {
    await app.register(async (scoped) => plugin(scoped, deps), { prefix })
  }

/** The one wiring file: every feature module, in one list. */
const modules = [
  healthRoutes,
  authRoutes,
  usersRoutes,
  shipsRoutes,
  uploadsRoutes,
  under('/api/v1/crew/users/:user_id/identity-documents', userIdentityDocumentsRoutes),
  under('/api/v1/crew/identity-documents', identityDocumentRoutes),
  under('/api/v1/crew/users/:user_id/certificates', userCertificatesRoutes),
  under('/api/v1/crew/certificates', certificateRoutes),
  under('/api/v1/crew/users/:user_id/experience', userExperienceRoutes),
  under('/api/v1/crew/experience', experienceRoutes),
  under('/api/v1/crew/users/:user_id/next-of-kin', userNextOfKinRoutes),
  under('/api/v1/crew/next-of-kin', nextOfKinRoutes),
  under('/api/v1/crew/users/:user_id/verification', profileVerificationRoutes),
  under('/api/v1/crew/verifications', reviewQueueRoutes),
  rosterRoutes,
  coursesRoutes,
  curriculumsRoutes,
  assignmentsRoutes,
  registrationsRoutes,
  analyticsRoutes,
]

export async function registerModules(app: App, deps: ModuleDeps): Promise<void> {
  for (const register of modules) await register(app, deps)
}
