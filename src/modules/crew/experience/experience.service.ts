import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../../db/database.js'
import { type Actor, assertCanReachUser } from '../../../lib/access.js'
import { columnsOf } from '../../../lib/columns.js'
import { checkDateOrder } from '../../../lib/dates.js'
import { IssueList } from '../../../lib/errors.js'
import { createdOrThrow, editReviewed, initialReview, reachUser } from '../reviewed-records/reviewed-records.service.js'
import { experienceWire, insertExperience } from './experience.queries.js'
import {
  EXPERIENCE_COLUMNS,
  EXPERIENCE_DATE_ORDER,
  type Experience,
  type ExperienceCreate,
  type ExperienceUpdate,
} from './experience.schemas.js'

export const LABEL = 'Experience'
const EXPERIENCE_DATES = { pairs: EXPERIENCE_DATE_ORDER, columns: EXPERIENCE_COLUMNS }

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
  const review = initialReview(actor, 'not_submitted')
  return createdOrThrow(insertExperience(db, actor.orgId, { id: uuidv7(), userId, columns, review, source: actor }))
}

/** PATCH: omitted fields stay, null clears the optional ones. */
export async function editExperience(db: Db, actor: Actor, id: string, body: ExperienceUpdate) {
  const edit = { table: 'experiences' as const, target: target(id), columns: columnsOf(EXPERIENCE_COLUMNS, body), wire: experienceWire }
  return (await editReviewed(db, actor, LABEL, body, EXPERIENCE_DATES, edit)) as Experience
}
