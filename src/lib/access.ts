import type { Product, Role } from '../db/schema.js'
import { forbidden, notFound } from './errors.js'

export const STAFF: Role[] = ['admin', 'office_admin', 'office_employee']
export const MANAGERS: Role[] = ['admin', 'office_admin']
export const ADMIN: Role[] = ['admin']
/** Who may create, change, delete and submit crew records (DECISIONS §2); crew only their own. */
export const RECORD_WRITERS: Role[] = ['admin', 'office_admin', 'crew']

/** Who is calling: set by the auth hook on every authenticated request. */
export interface Actor {
  userId: string
  orgId: string
  role: Role
  products: Product[]
  /** The request's id (DECISIONS §12), carried into the events the request writes. */
  requestId: string
  /** The sign-in (refresh token family) of the caller's token, when it came with a refresh token. */
  sessionId?: string
}

/** A caller as the database has them, before any request: what the actor cache keeps. */
export type StoredActor = Omit<Actor, 'requestId' | 'sessionId'>

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a token. */
    public?: boolean
    /** Roles allowed to call the route at all (403 for the others). Absent: every role. */
    roles?: Role[]
    /** The product the organization needs (403 without it): set from the route's registration in modules/index.ts. */
    product?: Product
  }
  interface FastifyRequest {
    actor: Actor
  }
}

export function assertRouteAllowed(actor: Actor, product: Product | undefined, roles: Role[] | undefined): void {
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

/**
 * Row visibility, the one rule: the user whose rows the caller sees, or undefined when the caller sees
 * every row of the organization. `seesAll` are the roles that see everyone's rows: staff for crew
 * records, uploads and users (crew see only their own); managers for assignments and registrations
 * (DECISIONS §2). Query functions take the result as `ownerId`; someone else's row is then a 404,
 * indistinguishable from a missing one.
 */
export const rowOwner = (actor: Actor, seesAll: readonly Role[] = STAFF): string | undefined =>
  seesAll.includes(actor.role) ? undefined : actor.userId

/** The same rule for a path naming a user: crew reach only themselves, staff anyone in their organization. */
export function assertCanReachUser(actor: Actor, userId: string, what = 'User'): void {
  const owner = rowOwner(actor)
  // UUIDs are case-insensitive: a crew member naming themselves in upper case is still themselves.
  if (owner && owner !== userId.toLowerCase()) throw notFound(what)
}

/**
 * The permission names a role carries, as reported by the session endpoint. The console shows each form,
 * button and tab only with its permission, so this table must agree with the routes' roles: a test calls
 * one operation per permission as every role (test/modules/accounts/users/permissions.test.ts).
 */
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
    'learn:xapi:credentials',
    'learn:xapi:statements:read',
    'uploads:write',
    'uploads:read',
    'organization:write',
    'requirements:write',
    'sso:manage',
    'webhooks:manage',
    'audit:read',
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
    'learn:xapi:statements:read',
    'uploads:write',
    'uploads:read',
    'audit:read',
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
