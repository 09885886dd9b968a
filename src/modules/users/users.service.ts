import type { Selectable } from 'kysely'
import type { Db } from '../../db/database.js'
import type { UsersTable } from '../../db/schema.js'
import type { Actor } from '../../lib/access.js'
import { hashPassword } from '../../lib/auth.js'
import { definedOnly } from '../../lib/columns.js'
import { conflict } from '../../lib/errors.js'
import { forgetFailuresOf } from '../auth/auth.queries.js'
import { changesOf, type NewEvent } from '../../lib/events.js'
import { setPasswordByEmail, type UserChanges } from './users.queries.js'
import type { User, UserUpdate } from './users.schemas.js'

/** An admin may not lock themselves out: no self-suspension, no dropping their own admin role. */
export function assertNotSelfLockout(actor: Actor, userId: string, body: UserUpdate): void {
  if (userId.toLowerCase() !== actor.userId) return
  if ((body.state && body.state !== 'active') || (body.role && body.role !== 'admin')) {
    throw conflict('You cannot suspend yourself or remove your own admin role')
  }
}

/** The columns a PATCH changes, with the state rules that depend on having a password. */
export async function userChanges(current: Selectable<UsersTable>, body: UserUpdate): Promise<UserChanges> {
  const changes: UserChanges = {
    email: body.email,
    first_name: body.firstName,
    last_name: body.lastName,
    role: body.role,
    state: body.state,
  }
  if (body.password) {
    changes.password_hash = await hashPassword(body.password)
    // Setting a password lets a pending user log in.
    if (current.state === 'pending' && !body.state) changes.state = 'active'
  }
  // Restoring a user who never had a password brings them back as pending, not active.
  if (changes.state === 'active' && !current.password_hash && !body.password) changes.state = 'pending'
  return definedOnly(changes)
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

/**
 * The events of a change to a user: a move to `suspended` is `user.suspended`, one back from it
 * `user.restored`, any other change `user.updated`; a new password is flagged, never carried.
 */
export function userEvents(before: User, after: User, passwordSet: boolean): NewEvent[] {
  const { state: stateBefore, ...restBefore } = before
  const { state: stateAfter, ...restAfter } = after
  const target = { type: 'user', id: after.id }
  const changes = changesOf(restBefore, restAfter)
  const events: NewEvent[] = []
  if (Object.keys(changes).length > 0 || passwordSet) {
    events.push({ type: 'user.updated', target, data: passwordSet ? { changes, passwordSet } : { changes } })
  }
  if (stateBefore !== stateAfter) {
    const type = stateAfter === 'suspended' ? 'user.suspended' : stateBefore === 'suspended' ? 'user.restored' : 'user.updated'
    events.push({ type, target, data: { changes: { state: [stateBefore, stateAfter] } } })
  }
  return events
}
