import type { Db } from '../../db/database.js'
import { type Actor, rowOwner } from '../../lib/access.js'
import { columnsOf, fieldsOf } from '../../lib/columns.js'
import { checkDateOrder } from '../../lib/dates.js'
import { IssueList, notFound } from '../../lib/errors.js'
import { objectEvent, withEvents } from '../../lib/events.js'
import { insertCrewRecord } from '../crew-records/crew-records.queries.js'
import { applyEdit } from '../crew-records/crew-records.service.js'
import { startReview } from '../verifications/verifications.service.js'
import { findExperience, lockExperience } from './experience.queries.js'
import {
  EXPERIENCE_COLUMNS,
  EXPERIENCE_DATE_ORDER,
  type Experience,
  type ExperienceCreate,
  type ExperienceUpdate,
} from './experience.schemas.js'

export const LABEL = 'Experience'
export const target = (id: string) => ({ type: 'experience' as const, id })

export function createExperience(db: Db, actor: Actor, userId: string, body: ExperienceCreate) {
  checkDateOrder(new IssueList(), EXPERIENCE_DATE_ORDER, body).throwIfAny()
  return withEvents(db, actor, async (trx, events): Promise<Experience> => {
    const id = await insertCrewRecord(trx, 'experiences', actor.orgId, userId, columnsOf(EXPERIENCE_COLUMNS, body))
    await startReview(trx, actor, userId, target(id))
    const experience = (await findExperience(trx, actor.orgId, id))!
    events.push(objectEvent('experience.created', 'experience', experience))
    return experience
  })
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
