import type { LoginLimits } from '../../../config.js'
import type { Db } from '../../../db/database.js'
import { hashPassword, verifyPassword } from '../../../lib/auth.js'
import { tooManyRequests, unauthorized } from '../../../lib/errors.js'
import { mustUseSso } from '../sso/sso.queries.js'
import { findUserByEmail, recordLogin, setPasswordByEmail } from '../users/users.queries.js'
import { forgetFailuresOf, forgetOldFailures, recordLoginAttempt, releaseAttempt, reserveAttempt } from './auth.queries.js'

const SUSPENDED = "This account is suspended: ask your organization's admin to restore it"

// Verifying against a real hash when the e-mail is unknown keeps response times alike.
const decoyHash = hashPassword('decoy-password-for-unknown-users')

/**
 * Checks a login. The attempt first takes a failure slot, so no more passwords are checked than the
 * limits allow however many attempts arrive at once; a success gives the slot back. A throttled
 * attempt is refused whatever its password: answering a right guess would confirm it.
 */
export async function logIn(db: Db, limits: LoginLimits, login: { email: string; password: string; address: string; requestId: string }) {
  const email = login.email.trim().toLowerCase()
  const reservation = await reserveAttempt(db, email, login.address, limits)
  if (reservation.slot === undefined) {
    await recordLoginAttempt(db, 'auth.throttled', email, login)
    throw tooManyRequests(reservation.retryAfter, 'Too many failed login attempts, try again later')
  }
  const user = await findUserByEmail(db, email)
  if (user && (await mustUseSso(db, user.id))) {
    await releaseAttempt(db, reservation.slot)
    throw unauthorized('Use single sign-on')
  }
  const ok = await verifyPassword(user?.password_hash ?? (await decoyHash), login.password)
  // Only the right password learns of the suspension (a guess still reads "incorrect"); it is no failed guess.
  if (user && ok && user.state === 'suspended') {
    await releaseAttempt(db, reservation.slot)
    throw unauthorized(SUSPENDED)
  }
  if (!user || !ok || user.state !== 'active') {
    await forgetOldFailures(db, limits.windowSeconds)
    await recordLoginAttempt(db, 'auth.login_failed', email, login)
    throw unauthorized('Incorrect email or password')
  }
  await releaseAttempt(db, reservation.slot)
  await recordLogin(db, user.id)
  return user
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
