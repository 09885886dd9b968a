import Fastify, { type RouteOptions } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { ROLES, type Role } from '../src/db/schema.js'
import { STAFF } from '../src/lib/access.js'
import { createMetrics } from '../src/lib/metrics.js'
import { errorStatuses } from '../src/lib/openapi.js'
import { createStorage } from '../src/lib/storage.js'
import { registerModules } from '../src/modules/index.js'
import type { App, ModuleDeps } from '../src/modules/types.js'
import { testConfig, testDatabase } from './app.js'

// A route's description is what a client developer reads first: every role it names must be allowed to
// call the route, a route limited to some roles names exactly those, and every status it names is one
// the route answers (its own responses plus the errors lib/openapi.ts adds by rule).

/** Role words as descriptions write them, longest first so "office admins" is not read as "admins". */
const ROLE_WORDS: [RegExp, readonly Role[] | 'no role'][] = [
  [/\boffice admins?\b/gi, ['office_admin']],
  [/\boffice employees?\b/gi, ['office_employee']],
  [/\badmins?\b/gi, ['admin']],
  [/\bstaff\b/gi, STAFF],
  [/\bcrew\b/gi, ['crew']],
  [/\bmanagers?\b/gi, 'no role'],
]

interface Described {
  method: string
  url: string
  description: string
  roles?: Role[]
  statuses: number[]
}

/** What is wrong with one route's description; empty when it agrees with the route. */
function disagreements({ description, roles, statuses }: Described): string[] {
  const problems: string[] = []
  const named = new Set<Role>()
  let text = description
  for (const [word, meaning] of ROLE_WORDS) {
    for (const [match] of text.matchAll(word)) {
      if (meaning === 'no role') problems.push(`names "${match}", which is no role`)
      else for (const role of meaning) named.add(role)
    }
    text = text.replace(word, ' ')
  }
  const allowed = roles ?? ROLES
  const notAllowed = [...named].filter((role) => !allowed.includes(role))
  if (notAllowed.length) problems.push(`names ${notAllowed.join(', ')}, not allowed to call it`)
  const unnamed = roles ? roles.filter((role) => !named.has(role)) : []
  if (unnamed.length) problems.push(`does not say that ${unnamed.join(', ')} may call it`)
  for (const [status] of description.matchAll(/\b[1-5]\d\d\b/g)) {
    if (!statuses.includes(Number(status))) problems.push(`names ${status}, which it never answers`)
  }
  return problems
}

/** Every route as the modules declare it (aliases included), with the statuses it answers. */
async function declaredRoutes(): Promise<Described[]> {
  const app = Fastify() as unknown as App
  const routes: RouteOptions[] = []
  app.addHook('onRoute', (route) => void routes.push(route))
  const config = testConfig()
  // Declaring routes reads only the configuration, the storage driver and the metrics (the bulk routes feed a
  // gauge); nothing runs a query.
  const metrics = createMetrics(await testDatabase())
  await registerModules(app, { config, storage: createStorage(config), metrics } as ModuleDeps)
  return routes
    .filter((route) => route.method !== 'HEAD' && route.schema?.description)
    .map((route) => ({
      method: String(route.method),
      url: route.url,
      description: route.schema!.description as string,
      roles: route.config?.roles,
      statuses: [...Object.keys(route.schema!.response ?? {}).map(Number), ...errorStatuses(route)],
    }))
}

describe('route descriptions', () => {
  let routes: Described[]
  beforeAll(async () => {
    routes = await declaredRoutes()
  })

  it('agree with the roles and statuses of every route', () => {
    expect(routes.length).toBeGreaterThan(100)
    const wrong = routes.map((route) => ({ route: `${route.method} ${route.url}`, problems: disagreements(route) }))
    expect(wrong.filter((r) => r.problems.length > 0)).toEqual([])
  })

  it('are caught naming a role that is not allowed, a word that is no role, or a status never answered', () => {
    const route = { method: 'POST', url: '/x', roles: ['admin'] as Role[], statuses: [200, 401, 403] }
    expect(disagreements({ ...route, description: 'Admins only.' })).toEqual([])
    expect(disagreements({ ...route, description: 'Staff only.' })).toEqual(['names office_admin, office_employee, not allowed to call it'])
    expect(disagreements({ ...route, description: 'Managers only; a conflict is a 409.' })).toEqual([
      'names "Managers", which is no role',
      'does not say that admin may call it',
      'names 409, which it never answers',
    ])
    expect(disagreements({ ...route, roles: ['admin', 'crew'], description: 'Admins only.' })).toEqual([
      'does not say that crew may call it',
    ])
    expect(disagreements({ ...route, roles: undefined, description: 'Crew reach only their own.' })).toEqual([])
  })
})
