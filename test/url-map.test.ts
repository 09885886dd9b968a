import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp, client, type TestApp } from './app.js'
import { createOrg, type TestOrg } from './factories.js'

// Every method and URL the service answered before the URL map moved into modules/index.ts, by the
// product that gates it. The map must serve exactly these: no URL lost, none added, none regated.
const WEBHOOKS = [
  'POST /api/v1/shared/webhooks',
  'GET /api/v1/shared/webhooks',
  'GET /api/v1/shared/webhooks/:webhook_id',
  'PATCH /api/v1/shared/webhooks/:webhook_id',
  'DELETE /api/v1/shared/webhooks/:webhook_id',
  'POST /api/v1/shared/webhooks/:webhook_id/rotate-secret',
  'POST /api/v1/shared/webhooks/:webhook_id/test',
  'GET /api/v1/shared/webhooks/:webhook_id/deliveries',
  'POST /api/v1/shared/webhooks/:webhook_id/deliveries/:delivery_id/retry',
]

const UNGATED = [
  // The service's root leads to the console (src/lib/console.ts).
  'GET /',
  'GET /healthz',
  'GET /readyz',
  'GET /openapi.json',
  'GET /metrics',
  'POST /api/v1/auth/token',
  'GET /api/v1/users/me',
  'GET /api/v1/shared/users/me',
  'GET /api/v1/shared/users/me/session',
  'POST /api/v1/shared/users',
  'GET /api/v1/shared/users',
  'GET /api/v1/shared/users/:user_id',
  'PATCH /api/v1/shared/users/:user_id',
  'DELETE /api/v1/shared/users/:user_id',
  // Accounts (DECISIONS §15).
  'POST /api/v1/shared/users/:user_id/invitation',
  'POST /api/v1/shared/users/:user_id/password-reset',
  'POST /api/v1/auth/invitations/:token/accept',
  'POST /api/v1/auth/password-resets/:token/accept',
  'POST /api/v1/auth/logout',
  'POST /api/v1/users/me/password',
  'POST /api/v1/shared/users/me/password',
  'POST /api/v1/shared/ships',
  'GET /api/v1/shared/ships',
  'GET /api/v1/shared/ships/:ship_id',
  'PATCH /api/v1/shared/ships/:ship_id',
  'DELETE /api/v1/shared/ships/:ship_id',
  'POST /api/v1/shared/uploads/intent',
  'POST /api/v1/shared/uploads/:upload_id/finalize',
  'GET /api/v1/shared/uploads/:upload_id',
  'POST /api/v1/shared/uploads/target',
  'GET /api/v1/shared/uploads/object',
  'POST /api/v1/shared/resumable-uploads',
  'PATCH /api/v1/shared/resumable-uploads/:upload_id',
  'GET /api/v1/shared/organization/sso',
  'PUT /api/v1/shared/organization/sso',
  'DELETE /api/v1/shared/organization/sso',
  'GET /api/v1/auth/sso/:domain/login',
  'GET /api/v1/auth/sso/callback',
  'GET /api/v1/shared/organization',
  'PATCH /api/v1/shared/organization',
  ...WEBHOOKS,
  'GET /api/v1/shared/audit-events',
  // The SCORM player's API: the session's own credential, no user token, so no product gate (DECISIONS §13.4).
  'GET /api/v1/learn/scorm/sessions/:session_id/runtime',
  'POST /api/v1/learn/scorm/sessions/:session_id/commit',
  'POST /api/v1/learn/scorm/sessions/:session_id/sequencing',
  'POST /api/v1/learn/scorm/sessions/:session_id/idle',
]

const CREW = [
  'GET /api/v1/crew/sea-service',
  'GET /api/v1/crew/users/:user_id/sea-service',
  ...['identity-documents', 'certificates', 'experience', 'next-of-kin'].flatMap((kind) => [
    `POST /api/v1/crew/users/:user_id/${kind}`,
    `GET /api/v1/crew/users/:user_id/${kind}`,
  ]),
  'GET /api/v1/crew/identity-documents/:document_id',
  'PATCH /api/v1/crew/identity-documents/:document_id',
  'DELETE /api/v1/crew/identity-documents/:document_id',
  'GET /api/v1/crew/certificates/:certificate_id',
  'PATCH /api/v1/crew/certificates/:certificate_id',
  'DELETE /api/v1/crew/certificates/:certificate_id',
  'PATCH /api/v1/crew/experience/:experience_id',
  'DELETE /api/v1/crew/experience/:experience_id',
  'PATCH /api/v1/crew/next-of-kin/:next_of_kin_id',
  'DELETE /api/v1/crew/next-of-kin/:next_of_kin_id',
  ...['identity-documents/:document_id', 'certificates/:certificate_id', 'experience/:experience_id'].flatMap((item) =>
    ['submit', 'verify', 'reject'].map((action) => `POST /api/v1/crew/${item}/${action}`),
  ),
  'GET /api/v1/crew/users/:user_id/verification',
  'GET /api/v1/crew/verifications',
  'GET /api/v1/crew/roster',
  'GET /api/v1/crew/requirements',
  'PUT /api/v1/crew/requirements',
  'GET /api/v1/crew/expiring',
]

const LEARN = [
  ...['/api/v1/courses', '/api/v1/learn/courses'].flatMap((base) => [
    `POST ${base}`,
    `GET ${base}`,
    `GET ${base}/:course_id`,
    `PATCH ${base}/:course_id`,
    `DELETE ${base}/:course_id`,
  ]),
  'POST /api/v1/learn/curriculums',
  'GET /api/v1/learn/curriculums',
  'GET /api/v1/learn/curriculums/:curriculum_id',
  'PATCH /api/v1/learn/curriculums/:curriculum_id',
  'DELETE /api/v1/learn/curriculums/:curriculum_id',
  'POST /api/v1/learn/curriculums/:curriculum_id/courses',
  'DELETE /api/v1/learn/curriculums/:curriculum_id/courses/:course_id',
  ...['/api/v1/assignments', '/api/v1/learn/assignments'].flatMap((base) => [
    `POST ${base}`,
    `GET ${base}`,
    `GET ${base}/:assignment_id`,
    ...['update', 'create', 'courses', 'remove-courses'].map((action) => `POST ${base}/bulk/${action}`),
  ]),
  'PATCH /api/v1/assignments/:assignment_id',
  'GET /api/v1/learn/registrations',
  'GET /api/v1/learn/registrations/:registration_id',
  'GET /api/v1/registrations/:registration_id',
  'POST /api/v1/learn/registrations/:registration_id/attempts',
  'GET /api/v1/learn/admin/analytics/course-difficulty',
  'GET /api/v1/learn/admin/analytics/course-difficulty/:course_id/questions',
  'POST /api/v1/learn/xapi/credentials',
  'GET /api/v1/learn/xapi/credentials',
  'DELETE /api/v1/learn/xapi/credentials/:credential_id',
  'POST /api/v1/learn/course-imports',
  'GET /api/v1/learn/course-imports/:import_id',
  'DELETE /api/v1/learn/course-imports/:import_id',
  'GET /api/v1/learn/courses/:course_id/structure',
  'POST /api/v1/learn/registrations/:registration_id/launch',
  'POST /api/v1/learn/registrations/:registration_id/offline',
  'POST /api/v1/learn/offline/sync',
  'GET /api/v1/learn/registrations/:registration_id/sessions',
  'POST /api/v1/learn/registrations/:registration_id/waive',
  'POST /api/v1/learn/sessions/:session_id/abandon',
]

// The LRS's resources (DECISIONS §13.1): every method on each, authenticated by the LRS itself, no product gate,
// hidden from the OpenAPI document (xAPI describes them). Their CORS preflight is a wildcard the tree prints as `*`.
const LRS = ['statements', 'activities/state', 'activities/profile', 'agents/profile', 'activities', 'agents', 'about'].flatMap((resource) =>
  ['GET', 'PUT', 'POST', 'DELETE'].map((method) => `${method} /api/v1/learn/xapi/${resource}`),
).concat(
  // cmi5's fetch URL, which the AU calls with no credential but the one in its path, and its CORS preflight.
  ['POST /api/v1/learn/cmi5/fetch/:token', 'OPTIONS /api/v1/learn/cmi5/fetch/:token'],
)

// Readiness reads crew records and learning alike: registered under learn, it needs both products (DECISIONS §10).
const BOTH = [
  'GET /api/v1/learn/assignments/:assignment_id/readiness',
  'GET /api/v1/assignments/:assignment_id/readiness',
  'GET /api/v1/learn/readiness',
  'GET /api/v1/shared/ships/:ship_id/readiness',
]

// The OpenAPI document: each operation once, at the path service-spec.md and DECISIONS §8 write
// (trailing slash where they write one), plus the embedded storage driver's two endpoints (§5).
const DOCUMENTED = [
  'POST /api/v1/auth/token',
  'GET /api/v1/users/me',
  'GET /api/v1/shared/users/me/session',
  'POST /api/v1/shared/users',
  'GET /api/v1/shared/users',
  'GET /api/v1/shared/users/{user_id}',
  'PATCH /api/v1/shared/users/{user_id}',
  'DELETE /api/v1/shared/users/{user_id}',
  'POST /api/v1/shared/users/{user_id}/invitation',
  'POST /api/v1/shared/users/{user_id}/password-reset',
  'POST /api/v1/auth/invitations/{token}/accept',
  'POST /api/v1/auth/password-resets/{token}/accept',
  'POST /api/v1/auth/logout',
  'POST /api/v1/users/me/password',
  'POST /api/v1/shared/ships',
  'GET /api/v1/shared/ships',
  'GET /api/v1/shared/ships/{ship_id}',
  'PATCH /api/v1/shared/ships/{ship_id}',
  'DELETE /api/v1/shared/ships/{ship_id}',
  'POST /api/v1/shared/uploads/intent',
  'POST /api/v1/shared/uploads/{upload_id}/finalize',
  'GET /api/v1/shared/uploads/{upload_id}',
  'POST /api/v1/shared/uploads/target',
  'GET /api/v1/shared/uploads/object',
  'POST /api/v1/shared/resumable-uploads',
  'PATCH /api/v1/shared/resumable-uploads/{upload_id}',
  'GET /api/v1/shared/organization/sso',
  'PUT /api/v1/shared/organization/sso',
  'DELETE /api/v1/shared/organization/sso',
  'GET /api/v1/auth/sso/{domain}/login',
  'GET /api/v1/auth/sso/callback',
  'GET /api/v1/shared/organization',
  'PATCH /api/v1/shared/organization',
  'GET /api/v1/shared/audit-events',
  'GET /api/v1/shared/ships/{ship_id}/readiness',
  'GET /api/v1/learn/assignments/{assignment_id}/readiness',
  'GET /api/v1/learn/readiness',
  ...WEBHOOKS.map((route) => route.replace(/:(\w+)/g, '{$1}')),
  ...CREW.map((route) => route.replace(/:(\w+)/g, '{$1}')),
  'POST /api/v1/courses/',
  'GET /api/v1/courses/',
  'GET /api/v1/courses/{course_id}',
  'PATCH /api/v1/courses/{course_id}',
  'DELETE /api/v1/courses/{course_id}',
  'POST /api/v1/learn/curriculums',
  'GET /api/v1/learn/curriculums',
  'GET /api/v1/learn/curriculums/{curriculum_id}',
  'PATCH /api/v1/learn/curriculums/{curriculum_id}',
  'DELETE /api/v1/learn/curriculums/{curriculum_id}',
  'POST /api/v1/learn/curriculums/{curriculum_id}/courses',
  'DELETE /api/v1/learn/curriculums/{curriculum_id}/courses/{course_id}',
  'POST /api/v1/assignments/',
  'GET /api/v1/assignments/',
  'GET /api/v1/assignments/{assignment_id}',
  'PATCH /api/v1/assignments/{assignment_id}',
  ...['update', 'create', 'courses', 'remove-courses'].map((action) => `POST /api/v1/learn/assignments/bulk/${action}`),
  'GET /api/v1/learn/registrations',
  'GET /api/v1/learn/registrations/{registration_id}',
  'POST /api/v1/learn/registrations/{registration_id}/attempts',
  'GET /api/v1/learn/admin/analytics/course-difficulty',
  'GET /api/v1/learn/admin/analytics/course-difficulty/{course_id}/questions',
  'POST /api/v1/learn/xapi/credentials',
  'GET /api/v1/learn/xapi/credentials',
  'DELETE /api/v1/learn/xapi/credentials/{credential_id}',
  'POST /api/v1/learn/course-imports',
  'GET /api/v1/learn/course-imports/{import_id}',
  'DELETE /api/v1/learn/course-imports/{import_id}',
  'GET /api/v1/learn/courses/{course_id}/structure',
  'POST /api/v1/learn/registrations/{registration_id}/launch',
  'POST /api/v1/learn/registrations/{registration_id}/offline',
  'POST /api/v1/learn/offline/sync',
  'GET /api/v1/learn/registrations/{registration_id}/sessions',
  'POST /api/v1/learn/registrations/{registration_id}/waive',
  'POST /api/v1/learn/sessions/{session_id}/abandon',
  'POST /api/v1/learn/cmi5/fetch/{token}',
  'GET /api/v1/learn/scorm/sessions/{session_id}/runtime',
  'POST /api/v1/learn/scorm/sessions/{session_id}/commit',
  'POST /api/v1/learn/scorm/sessions/{session_id}/sequencing',
  'POST /api/v1/learn/scorm/sessions/{session_id}/idle',
]

/**
 * Method and URL of every route the router holds, read from its printed tree. HEAD, the /docs assets and the
 * console (test/console.test.ts) aside; the tree prints the console's catch-all `/console/*` as `/*` under the root.
 */
function servedRoutes(app: App): string[] {
  const served: string[] = []
  const path: string[] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!match) continue
    const depth = match[1].length / 4
    path[depth] = (depth ? path[depth - 1] : '') + match[2]
    for (const method of match[3]?.split(', ') ?? []) {
      if (method !== 'HEAD') served.push(`${method} ${path[depth].replace(/(.)\/$/, '$1')}`)
    }
  }
  return served
    .filter((route) => route !== 'GET /*' && !['/docs', '/console'].some((prefix) => route.split(' ')[1].startsWith(prefix)))
    .sort()
}

const withIds = (url: string) => url.replace(/:\w+/g, '0190a4a0-0000-7000-8000-000000000001')

let t: TestApp
let crewOnly: TestOrg
let learnOnly: TestOrg
beforeAll(async () => {
  t = await buildTestApp()
  crewOnly = await createOrg(t.app, t.database.db, { products: ['crew'] })
  learnOnly = await createOrg(t.app, t.database.db, { products: ['learn'] })
})
afterAll(() => t.app.close())

describe('the URL map', () => {
  it('serves exactly the methods and URLs served before, each once', () => {
    const expected = [...UNGATED, ...CREW, ...LEARN, ...BOTH, ...LRS].sort()
    expect(new Set(expected).size).toBe(expected.length)
    expect(servedRoutes(t.app)).toEqual(expected)
  })

  it('gates each route on the product of its registration, and nothing else', async () => {
    const call = (org: TestOrg, route: string) => {
      const [method, url] = route.split(' ')
      return org.admin.api[method.toLowerCase() as 'get'](withIds(url))
    }
    for (const [routes, product, without, withIt] of [
      [LEARN, 'learn', crewOnly, learnOnly],
      [CREW, 'crew', learnOnly, crewOnly],
    ] as const) {
      for (const route of routes) {
        const refused = await call(without, route)
        expect({ route, status: refused.status, body: refused.body }).toEqual({
          route,
          status: 403,
          body: { detail: `Your organization does not have the ${product} product` },
        })
        expect({ route, status: (await call(withIt, route)).status }).not.toEqual({ route, status: 403 })
      }
    }
    for (const route of BOTH) {
      for (const org of [crewOnly, learnOnly]) expect({ route, status: (await call(org, route)).status }).toEqual({ route, status: 403 })
    }
    for (const route of UNGATED) {
      for (const org of [crewOnly, learnOnly]) {
        expect({ route, status: (await call(org, route)).status }).not.toEqual({ route, status: 403 })
      }
    }
  })
})

describe('the OpenAPI document', () => {
  it('lists each operation once, at the path the contract writes, and no alias', async () => {
    const spec = (await client(t.app).get('/openapi.json')).body
    const operations = Object.entries(
      spec.paths as Record<string, Record<string, { summary?: string; tags?: string[]; operationId?: string }>>,
    ).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, ...op })))
    expect(operations.map((op) => op.route).sort()).toEqual([...DOCUMENTED].sort())
    // The same operation twice would show as the same method, tags and summary at two paths.
    const summaries = operations.filter((op) => op.summary).map((op) => `${op.route.split(' ')[0]} ${op.tags} ${op.summary}`)
    expect(summaries.length).toBeGreaterThan(20)
    expect(new Set(summaries).size).toBe(summaries.length)
    const operationIds = operations.flatMap((op) => (op.operationId ? [op.operationId] : []))
    expect(new Set(operationIds).size).toBe(operationIds.length)
  })

  it('answers with and without the trailing slash, at the documented path and its alias alike', async () => {
    const { admin } = learnOnly
    for (const base of [
      '/api/v1/courses',
      '/api/v1/learn/courses',
      '/api/v1/assignments',
      '/api/v1/learn/assignments',
      '/api/v1/learn/curriculums',
    ]) {
      for (const url of [base, `${base}/`]) {
        const res = await admin.api.get(url)
        expect({ url, status: res.status, hasMore: res.body.hasMore }).toEqual({ url, status: 200, hasMore: false })
      }
    }
    for (const url of ['/api/v1/shared/ships', '/api/v1/shared/ships/', '/api/v1/users/me/', '/api/v1/shared/users/me']) {
      expect({ url, status: (await admin.api.get(url)).status }).toEqual({ url, status: 200 })
    }
    const created = await admin.api.post('/api/v1/courses', {
      organization_id: learnOnly.id,
      s3_path: 'courses/intro',
      launch_file: 'index.html',
      title: 'Posted without the slash',
    })
    expect(created.status).toBe(201)
    const listed = await admin.api.get('/api/v1/courses/')
    expect(listed.body.items.map((course: { id: string }) => course.id)).toEqual([created.body.id])
  })
})
