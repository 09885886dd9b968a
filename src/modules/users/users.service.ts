import type { Actor } from '../../lib/access.js'
import { conflict } from '../../lib/errors.js'
import type { UserUpdate } from './users.schemas.js'

/** An admin may not lock themselves out: no self-suspension, no dropping their own admin role. */
export function assertNotSelfLockout(actor: Actor, userId: string, body: UserUpdate): void {
  if (userId.toLowerCase() !== actor.userId) return
  if ((body.state && body.state !== 'active') || (body.role && body.role !== 'admin')) {
    throw conflict('You cannot suspend yourself or remove your own admin role')
  }
}
