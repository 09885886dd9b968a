import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../db/database.js'
import { type Actor, assertCanReachUser, rowOwner } from '../../lib/access.js'
import { columnsOf, fieldsOf } from '../../lib/columns.js'
import { checkDateOrder } from '../../lib/dates.js'
import { IssueList, notFound } from '../../lib/errors.js'
import { withEvents } from '../../lib/events.js'
import { applyEdit, createdOrThrow, reachUser } from '../crew-records/crew-records.service.js'
import { initialReview } from '../verifications/verifications.service.js'
import { findExperience, insertExperience, lockExperience } from './experience.queries.js'
import {
  EXPERIENCE_COLUMNS,
  EXPERIENCE_DATE_ORDER,
  type Experience,
  type ExperienceCreate,
  type ExperienceUpdate,
} from './experience.schemas.js'

export const LABEL = 'Experience'
export const target = (id: string) => ({ type: 'experience' as const, id })

/** One statement; a body whose dates are out of order is refused after the user is found (404 first). */
export async function createExperience(db: Db, actor: Actor, userId: string, body: ExperienceCreate) {
  const dates = checkDateOrder(new IssueList(), EXPERIENCE_DATE_ORDER, body)
  if (dates.issues.length > 0) {
    await reachUser(db, actor, userId)
    dates.throwIfAny()
  }
  assertCanReachUser(actor, userId)
  const columns = columnsOf(EXPERIENCE_COLUMNS, body)
  const review = initialReview(actor, 'experience')
  return createdOrThrow(await insertExperience(db, actor.orgId, { id: uuidv7(), userId, columns, review, source: actor }))
}

/** PATCH: omitted fields stay, null clears the optional ones. */
export function editExperience(db: Db, actor: Actor, id: string, body: ExperienceUpdate) {
  return withEvents(db, actor, async (trx, events): Promise<Experience> => {
    const current = await lockExperience(trx, actor.orgId, id, rowOwner(actor))
    if (!current) throw notFound(LABEL)
    checkDateOrder(new IssueList(), EXPERIENCE_DATE_ORDER, body, fieldsOf(EXPERIENCE_COLUMNS, current)).throwIfAny()
    await applyEdit(
      trx,
      actor,
      'experiences',
      target(id),
      current,
      columnsOf(EXPERIENCE_COLUMNS, body),
      (t) => findExperience(t, actor.orgId, id),
      events,
    )
    return (await findExperience(trx, actor.orgId, id))!
  })
}
