import type { LoginLimits } from '../../config.js'
import type { Db } from '../../db/database.js'
import { hashPassword, verifyPassword } from '../../lib/auth.js'
import { tooManyRequests, unauthorized } from '../../lib/errors.js'
import { mustUseSso } from '../sso/sso.queries.js'
import { findUserByEmail, recordLogin } from '../users/users.queries.js'
import { forgetOldFailures, releaseAttempt, reserveAttempt } from './auth.queries.js'

// Verifying against a real hash when the e-mail is unknown keeps response times alike.
const decoyHash = hashPassword('decoy-password-for-unknown-users')

/**
 * Checks a login. The attempt first takes a failure slot, so no more passwords are checked than the
 * limits allow however many attempts arrive at once; a success gives the slot back. A throttled
 * attempt is refused whatever its password: answering a right guess would confirm it.
 */
export async function logIn(db: Db, limits: LoginLimits, login: { email: string; password: string; address: string }) {
  const email = login.email.trim().toLowerCase()
  const reservation = await reserveAttempt(db, email, login.address, limits)
  if (reservation.slot === undefined) throw tooManyRequests(reservation.retryAfter, 'Too many failed login attempts, try again later')
  const user = await findUserByEmail(db, email)
  if (user && (await mustUseSso(db, user.id))) {
    await releaseAttempt(db, reservation.slot)
    throw unauthorized('Use single sign-on')
  }
  const ok = await verifyPassword(user?.password_hash ?? (await decoyHash), login.password)
  if (!user || !ok || user.state !== 'active') {
    await forgetOldFailures(db, limits.windowSeconds)
    throw unauthorized('Incorrect email or password')
  }
  await releaseAttempt(db, reservation.slot)
  await recordLogin(db, user.id)
  return user
}
