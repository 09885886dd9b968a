import type { Db } from '../../db/database.js'
import type { Actor } from '../../lib/access.js'
import { hashPassword } from '../../lib/auth.js'
import { conflict } from '../../lib/errors.js'
import { forgetFailuresOf } from '../auth/auth.queries.js'
import { setPasswordByEmail } from './users.queries.js'
import type { UserUpdate } from './users.schemas.js'

/** An admin may not lock themselves out: no self-suspension, no dropping their own admin role. */
export function assertNotSelfLockout(actor: Actor, userId: string, body: UserUpdate): void {
  if (userId.toLowerCase() !== actor.userId) return
  if ((body.state && body.state !== 'active') || (body.role && body.role !== 'admin')) {
    throw conflict('You cannot suspend yourself or remove your own admin role')
  }
}

/**
 * The operator's reset of a lost login (`seaworthy user reset-password`): the new password, and the
 * e-mail's failed attempts forgotten so a throttled login works at once. Null when no user has the e-mail.
 */
export async function resetPassword(db: Db, email: string, password: string) {
  const user = await setPasswordByEmail(db, email, await hashPassword(password))
  if (user) await forgetFailuresOf(db, email)
  return user ?? null
}
