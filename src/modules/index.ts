import type { RouteOptions } from 'fastify'
import type { Product } from '../db/schema.js'
import type { Jobs } from '../lib/jobs.js'
import { acceptLinkRoutes, accountLinkRoutes, ownPasswordRoutes } from './accounts/accounts/accounts.routes.js'
import { authRoutes } from './accounts/auth/auth.routes.js'
import { organizationRoutes } from './accounts/organizations/organizations.routes.js'
import { ssoBrowserRoutes, ssoSettingsRoutes } from './accounts/sso/sso.routes.js'
import { usersRoutes } from './accounts/users/users.routes.js'
import { assignmentsRoutes, assignmentUpdateRoutes } from './crew/assignments/assignments.routes.js'
import { bulkRoutes } from './crew/assignments/bulk.routes.js'
import { currentUserRoutes } from './crew/assignments/me.routes.js'
import { experienceRoutes, userExperienceRoutes } from './crew/experience/experience.routes.js'
import { expiringRoutes } from './crew/expiring/expiring.routes.js'
import { defineCrewJobs } from './crew/jobs.js'
import { nextOfKinRoutes, userNextOfKinRoutes } from './crew/next-of-kin/next-of-kin.routes.js'
import { assignmentReadinessRoutes, fleetReadinessRoutes, shipReadinessRoutes } from './crew/readiness/readiness.routes.js'
import { requirementsRoutes } from './crew/requirements/requirements.routes.js'
import { RECORD_KINDS } from './crew/record-kinds/record-kinds.js'
import { recordKindRegistrations } from './crew/reviewed-records/reviewed-records.routes.js'
import { rosterRoutes } from './crew/roster/roster.routes.js'
import { fleetSeaServiceRoutes, userSeaServiceRoutes } from './crew/sea-service/sea-service.routes.js'
import { shipsRoutes } from './crew/ships/ships.routes.js'
import { profileVerificationRoutes, reviewQueueRoutes } from './crew/verifications/verifications.routes.js'
import { analyticsRoutes } from './learning/analytics/analytics.routes.js'
import { coursesRoutes } from './learning/courses/courses.routes.js'
import { curriculumsRoutes } from './learning/curriculums/curriculums.routes.js'
import { defineLearningJobs } from './learning/jobs.js'
import { launchRoutes } from './learning/launch/launch.routes.js'
import { sessionCredentials } from './learning/launch/session-credentials.js'
import { withStandards } from './learning/launch/standard.js'
import { offlineRoutes } from './learning/offline/offline.routes.js'
import { courseImportsRoutes, courseStructureRoutes } from './learning/packages/packages.routes.js'
import { registrationReadRoutes, registrationsRoutes } from './learning/registrations/registrations.routes.js'
import { STANDARDS } from './learning/standards/index.js'
import { xapiCredentialsRoutes } from './learning/xapi/credentials.routes.js'
import { LRS_AUTHENTICATORS, xapiRoutes } from './learning/xapi/xapi.routes.js'
import { auditRoutes } from './platform/audit/audit.routes.js'
import { healthRoutes } from './platform/health/health.routes.js'
import { definePlatformJobs, type JobDeps } from './platform/jobs/jobs.js'
import { metricsRoutes } from './platform/metrics/metrics.routes.js'
import { embeddedStorageRoutes } from './platform/uploads/uploads.embedded.js'
import { resumableUploadRoutes } from './platform/uploads/uploads.resumable.js'
import { uploadsRoutes } from './platform/uploads/uploads.routes.js'
import { webhooksRoutes } from './platform/webhooks/webhooks.routes.js'
import type { App, ModuleDeps, ModulePlugin } from './types.js'

interface Registration {
  plugin: ModulePlugin
  /** Where the plugin's relative paths start, written as the contract writes it (the OpenAPI document shows it so). */
  prefix: string
  /** The product the caller's organization needs for every route of the plugin (403 otherwise). */
  product?: Product
  /** Older paths that serve the same operations; left out of the OpenAPI document. */
  aliases?: string[]
}

/** The one wiring file: every URL the service answers starts at one of these prefixes (DECISIONS §8). */
const registrations: Registration[] = [
  { plugin: healthRoutes, prefix: '' },
  { plugin: metricsRoutes, prefix: '' },
  { plugin: authRoutes, prefix: '/api/v1/auth' },
  { plugin: currentUserRoutes, prefix: '/api/v1/users', aliases: ['/api/v1/shared/users'] },
  { plugin: usersRoutes, prefix: '/api/v1/shared/users' },
  // Accounts (DECISIONS §15): an admin's links, accepting them, and the caller's own password.
  { plugin: accountLinkRoutes, prefix: '/api/v1/shared/users' },
  { plugin: acceptLinkRoutes, prefix: '/api/v1/auth' },
  { plugin: ownPasswordRoutes, prefix: '/api/v1/users', aliases: ['/api/v1/shared/users'] },
  { plugin: shipsRoutes, prefix: '/api/v1/shared/ships' },
  { plugin: uploadsRoutes, prefix: '/api/v1/shared/uploads' },
  // The embedded storage driver's presigned POST target and signed download (lib/storage.ts hands out their URLs).
  { plugin: embeddedStorageRoutes, prefix: '/api/v1/shared/uploads' },
  // Resumable uploads with tus (DECISIONS §16), making the same uploads as the intent.
  { plugin: resumableUploadRoutes, prefix: '/api/v1/shared/resumable-uploads' },
  // Identity documents, certificates: each kind of expiring crew record under its paths (crew/record-kinds/).
  ...RECORD_KINDS.flatMap(recordKindRegistrations),
  { plugin: userExperienceRoutes, prefix: '/api/v1/crew/users/:user_id/experience', product: 'crew' },
  { plugin: experienceRoutes, prefix: '/api/v1/crew/experience', product: 'crew' },
  { plugin: userNextOfKinRoutes, prefix: '/api/v1/crew/users/:user_id/next-of-kin', product: 'crew' },
  { plugin: nextOfKinRoutes, prefix: '/api/v1/crew/next-of-kin', product: 'crew' },
  { plugin: profileVerificationRoutes, prefix: '/api/v1/crew/users/:user_id/verification', product: 'crew' },
  { plugin: reviewQueueRoutes, prefix: '/api/v1/crew/verifications', product: 'crew' },
  { plugin: rosterRoutes, prefix: '/api/v1/crew/roster', product: 'crew' },
  { plugin: userSeaServiceRoutes, prefix: '/api/v1/crew/users/:user_id/sea-service', product: 'crew' },
  { plugin: fleetSeaServiceRoutes, prefix: '/api/v1/crew/sea-service', product: 'crew' },
  { plugin: coursesRoutes, prefix: '/api/v1/courses/', product: 'learn', aliases: ['/api/v1/learn/courses/'] },
  { plugin: courseImportsRoutes, prefix: '/api/v1/learn/course-imports', product: 'learn' },
  { plugin: courseStructureRoutes, prefix: '/api/v1/learn/courses/:course_id/structure', product: 'learn' },
  // Launch and sessions (DECISIONS §13.4), for every standard in learning/standards/index.ts.
  { plugin: withStandards(launchRoutes, STANDARDS), prefix: '/api/v1/learn', product: 'learn' },
  // Each standard's runtime (cmi5's fetch URL, the SCORM player's runtime and commits): called by the content with
  // the session's credential, no user token, so no product gate. Their prefixes are in the standards' folders.
  ...STANDARDS.flatMap((standard) => standard.runtime.routes(STANDARDS)),
  // Courses taken offline and the console's queue after the fact (DECISIONS §16).
  { plugin: withStandards(offlineRoutes, STANDARDS), prefix: '/api/v1/learn', product: 'learn' },
  { plugin: curriculumsRoutes, prefix: '/api/v1/learn/curriculums', product: 'learn' },
  { plugin: assignmentsRoutes, prefix: '/api/v1/assignments/', product: 'learn', aliases: ['/api/v1/learn/assignments/'] },
  { plugin: assignmentUpdateRoutes, prefix: '/api/v1/assignments/', product: 'learn' },
  { plugin: bulkRoutes, prefix: '/api/v1/learn/assignments/bulk', product: 'learn', aliases: ['/api/v1/assignments/bulk'] },
  { plugin: registrationsRoutes, prefix: '/api/v1/learn/registrations', product: 'learn' },
  { plugin: registrationReadRoutes, prefix: '/api/v1/learn/registrations', product: 'learn', aliases: ['/api/v1/registrations'] },
  { plugin: analyticsRoutes, prefix: '/api/v1/learn/admin/analytics', product: 'learn' },
  { plugin: ssoSettingsRoutes, prefix: '/api/v1/shared/organization/sso' },
  { plugin: ssoBrowserRoutes, prefix: '/api/v1/auth/sso' },
  { plugin: organizationRoutes, prefix: '/api/v1/shared/organization' },
  { plugin: requirementsRoutes, prefix: '/api/v1/crew/requirements', product: 'crew' },
  { plugin: expiringRoutes, prefix: '/api/v1/crew/expiring', product: 'crew' },
  {
    plugin: assignmentReadinessRoutes,
    prefix: '/api/v1/learn/assignments/:assignment_id/readiness',
    product: 'learn',
    aliases: ['/api/v1/assignments/:assignment_id/readiness'],
  },
  { plugin: fleetReadinessRoutes, prefix: '/api/v1/learn/readiness', product: 'learn' },
  { plugin: shipReadinessRoutes, prefix: '/api/v1/shared/ships/:ship_id/readiness' },
  { plugin: webhooksRoutes, prefix: '/api/v1/shared/webhooks' },
  { plugin: auditRoutes, prefix: '/api/v1/shared/audit-events' },
  { plugin: xapiCredentialsRoutes, prefix: '/api/v1/learn/xapi/credentials', product: 'learn' },
  // The LRS authenticates its own callers (a launch session's credential, Basic credentials; a staff token reads): see xapi/auth.ts.
  {
    plugin: (app, deps) => xapiRoutes([sessionCredentials(deps.config, STANDARDS), ...LRS_AUTHENTICATORS])(app, deps),
    prefix: '/api/v1/learn/xapi',
  },
]

/** Marks every route of one registration: its product for the access check, and hidden from the document if an alias. */
function stamp(route: RouteOptions, product: Product | undefined, alias: boolean): void {
  if (product) route.config = { ...route.config, product }
  if (alias) route.schema = { ...route.schema, hide: true }
}

export async function registerModules(app: App, deps: ModuleDeps): Promise<void> {
  for (const { plugin, prefix, product, aliases = [] } of registrations) {
    for (const at of [prefix, ...aliases]) {
      await app.register(
        async (scope: App) => {
          scope.addHook('onRoute', (route) => stamp(route, product, at !== prefix))
          await plugin(scope, deps)
        },
        { prefix: at },
      )
    }
  }
}

/** Every background job of the service: each wing defines the jobs over its own data, on the platform's queue. */
export function defineJobs(jobs: Jobs, deps: JobDeps): void {
  definePlatformJobs(jobs, deps)
  defineCrewJobs(jobs, deps)
  defineLearningJobs(jobs, deps)
}
