import type { Role } from './session-store.js'

/** Mirrors the service's role groups (src/lib/access.ts); the API still decides every call. */
export const STAFF: Role[] = ['admin', 'office_admin', 'office_employee']
export const MANAGERS: Role[] = ['admin', 'office_admin']
export const EVERYONE: Role[] = ['admin', 'office_admin', 'office_employee', 'crew']

/** Where each role lands after signing in. */
export function homeOf(role: Role): string {
  return role === 'crew' ? '/me' : '/review'
}
