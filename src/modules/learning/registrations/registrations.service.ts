import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { conflict, notFound } from '../../../lib/errors.js'
import { recordAttempt, sameAttempt } from './attempts.queries.js'
import { isPackagedRegistration, type RegistrationRow } from './registrations.queries.js'
import type { AttemptCreate } from './registrations.schemas.js'

/**
 * An attempt is recorded once per attemptId (ships retry over poor links): a replay with the same
 * content answers with the registration unchanged, one with different content is a conflict.
 */
export async function submitAttempt(
  db: Db,
  actor: Actor,
  registrationId: string,
  assigneeId: string | undefined,
  attempt: AttemptCreate,
  expiringSoonDays: number,
): Promise<{ registration: RegistrationRow; created: boolean }> {
  const { orgId } = actor
  const result = await recordAttempt(db, actor, registrationId, assigneeId, attempt, expiringSoonDays)
  if (!result) {
    if (await isPackagedRegistration(db, orgId, registrationId, assigneeId))
      throw conflict('This course records its results from its sessions')
    throw notFound('Registration')
  }
  const { created, ...registration } = result
  if (created) return { registration, created }
  const same = await sameAttempt(db, orgId, registrationId, attempt)
  if (same === undefined) throw notFound('Registration')
  if (!same) throw conflict('This attemptId was already recorded with different content')
  return { registration, created }
}
