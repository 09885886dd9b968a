import type { LoginLimits } from '../../config.js'
import type { Db } from '../../db/database.js'
import { hashPassword, verifyPassword } from '../../lib/auth.js'
import { tooManyRequests, unauthorized } from '../../lib/errors.js'
import { appendEvents } from '../../lib/events.js'
import { mustUseSso } from '../sso/sso.queries.js'
import { findUserByEmail, recordLogin, setPasswordByEmail } from '../users/users.queries.js'
import { forgetFailuresOf, forgetOldFailures, loginAttemptOwner, releaseAttempt, reserveAttempt } from './auth.queries.js'

// Verifying against a real hash when the e-mail is unknown keeps response times alike.
const decoyHash = hashPassword('decoy-password-for-unknown-users')

/**
 * A refused login in the audit trail of the organization it concerns (none when no organization has
 * the user or the e-mail's domain). The caller proved no identity, so the actor is null; the request
 * id still ties the event to the request. The password never goes in.
 */
async function recordAttempt(
  db: Db,
  type: 'auth.login_failed' | 'auth.throttled',
  email: string,
  login: { address: string; requestId: string },
) {
  const owner = await loginAttemptOwner(db, email)
  if (!owner) return
  const event = { type, target: { type: 'user', id: owner.userId }, data: { email, address: login.address } }
  await appendEvents(db, { orgId: owner.orgId, actor: null, requestId: login.requestId }, [event])
}

/**
 * Checks a login. The attempt first takes a failure slot, so no more passwords are checked than the
 * limits allow however many attempts arrive at once; a success gives the slot back. A throttled
 * attempt is refused whatever its password: answering a right guess would confirm it.
 */
export async function logIn(db: Db, limits: LoginLimits, login: { email: string; password: string; address: string; requestId: string }) {
  const email = login.email.trim().toLowerCase()
  const reservation = await reserveAttempt(db, email, login.address, limits)
  if (reservation.slot === undefined) {
    await recordAttempt(db, 'auth.throttled', email, login)
    throw tooManyRequests(reservation.retryAfter, 'Too many failed login attempts, try again later')
  }
  const user = await findUserByEmail(db, email)
  if (user && (await mustUseSso(db, user.id))) {
    await releaseAttempt(db, reservation.slot)
    throw unauthorized('Use single sign-on')
  }
  const ok = await verifyPassword(user?.password_hash ?? (await decoyHash), login.password)
  if (!user || !ok || user.state !== 'active') {
    await forgetOldFailures(db, limits.windowSeconds)
    await recordAttempt(db, 'auth.login_failed', email, login)
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
