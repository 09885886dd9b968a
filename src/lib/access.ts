import type { Product, Role } from '../db/schema.js'
import { forbidden, notFound } from './errors.js'

export const ROLES = ['admin', 'office_admin', 'office_employee', 'crew'] as const satisfies readonly Role[]
export const STAFF: Role[] = ['admin', 'office_admin', 'office_employee']
export const MANAGERS: Role[] = ['admin', 'office_admin']
export const ADMIN: Role[] = ['admin']
export const PRODUCTS = ['learn', 'crew'] as const satisfies readonly Product[]

/** Who is calling: set by the auth hook on every authenticated request. */
export interface Actor {
  userId: string
  orgId: string
  role: Role
  products: Product[]
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a token. */
    public?: boolean
    /** Roles allowed to call the route at all (403 for the others). Absent: every role. */
    roles?: Role[]
  }
  interface FastifyRequest {
    actor: Actor
  }
}

// Un-namespaced aliases belong to the product of the namespaced path they mirror.
const PRODUCT_PREFIXES: [string, Product][] = [
  ['/api/v1/learn', 'learn'],
  ['/api/v1/courses', 'learn'],
  ['/api/v1/assignments', 'learn'],
  ['/api/v1/registrations', 'learn'],
  ['/api/v1/crew', 'crew'],
]

export function productOf(routeUrl: string): Product | undefined {
  return PRODUCT_PREFIXES.find(([prefix]) => routeUrl === prefix || routeUrl.startsWith(`${prefix}/`))?.[1]
}

export function assertRouteAllowed(actor: Actor, routeUrl: string, roles: Role[] | undefined): void {
  const product = productOf(routeUrl)
  if (product && !actor.products.includes(product)) {
    throw forbidden(`Your organization does not have the ${product} product`)
  }
  if (roles && !roles.includes(actor.role)) throw forbidden()
}

/** For operations that span both products (readiness needs crew records and learning): 403 without either. */
export function assertProducts(actor: Actor, products: readonly Product[]): void {
  const missing = products.find((product) => !actor.products.includes(product))
  if (missing) throw forbidden(`Your organization does not have the ${missing} product`)
}

export const isStaff = (actor: Actor) => STAFF.includes(actor.role)

/**
 * Crew reach only their own records; staff reach anyone's in their organization.
 * Someone else's record is a 404, indistinguishable from a missing one.
 */
export function assertCanReachUser(actor: Actor, userId: string, what = 'User'): void {
  // UUIDs are case-insensitive: a crew member naming themselves in upper case is still themselves.
  if (actor.role === 'crew' && actor.userId !== userId.toLowerCase()) throw notFound(what)
}

/** The permission names a role carries, as reported by the session endpoint. */
export const PERMISSIONS: Record<Role, string[]> = {
  admin: [
    'users:write',
    'users:read',
    'ships:write',
    'ships:read',
    'crew:read',
    'crew:write',
    'crew:review',
    'crew:submit',
    'learn:courses:write',
    'learn:read',
    'learn:assignments:write',
    'learn:assignments:bulk',
    'learn:attempts:write',
    'learn:analytics',
    'uploads:write',
    'uploads:read',
  ],
  office_admin: [
    'users:read',
    'ships:read',
    'crew:read',
    'crew:write',
    'crew:review',
    'crew:submit',
    'learn:read',
    'learn:assignments:write',
    'uploads:write',
    'uploads:read',
  ],
  office_employee: ['users:read', 'ships:read', 'crew:read', 'crew:review', 'learn:read', 'uploads:write', 'uploads:read'],
  crew: [
    'users:read:self',
    'ships:read',
    'crew:read:self',
    'crew:write:self',
    'crew:submit:self',
    'learn:read:self',
    'learn:attempts:write:self',
    'uploads:write',
    'uploads:read:self',
  ],
}
