import { type Selectable, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { ExperiencesTable } from '../../../db/schema.js'
import { fieldsOf } from '../../../lib/columns.js'
import { iso } from '../../../lib/dates.js'
import { selectWithVerification } from '../reviewed-records/reviewed-reads.queries.js'
import {
  embeddedVerification,
  type InsertOutcome,
  type NewReviewed,
  reviewedInsert,
  reviewedWireSql,
  type VerificationJoin,
} from '../reviewed-records/reviewed-records.queries.js'
import { EXPERIENCE_COLUMNS, type Experience } from './experience.schemas.js'

const toExperience = (row: Selectable<ExperiencesTable> & VerificationJoin): Experience => ({
  id: row.id,
  ...fieldsOf(EXPERIENCE_COLUMNS, row),
  source: row.source,
  assignmentId: row.assignment_id,
  verification: embeddedVerification(row),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
})

/** An experience row as the client receives it, over its row and its verification's (DECISIONS §11's data). */
export const experienceWire = reviewedWireSql(EXPERIENCE_COLUMNS, (record) => ({
  source: sql.ref(`${record}.source`),
  assignmentId: sql.ref(`${record}.assignment_id`),
}))

const selectExperience = (db: Db, orgId: string) =>
  selectWithVerification(db, 'experiences', 'experience').selectAll('experiences').where('experiences.organization_id', '=', orgId)

/** A user's experience, the most recent position first. */
export async function listExperience(db: Db, orgId: string, userId: string): Promise<Experience[]> {
  const rows = await selectExperience(db, orgId)
    .where('experiences.user_id', '=', userId)
    .orderBy('experiences.start_date', 'desc')
    .orderBy('experiences.created_at', 'desc')
    .orderBy('experiences.id', 'desc')
    .execute()
  return rows.map(toExperience)
}

const insert = reviewedInsert({ table: 'experiences', target: 'experience', created: 'experience.created' }, () => experienceWire)

/** Creates an experience row, its verification and its `experience.created` event in one statement (`reviewedInsert`). */
export async function insertExperience(db: Db, orgId: string, experience: NewReviewed<'experiences'>): Promise<InsertOutcome<Experience>> {
  const outcome = await insert(db, orgId, experience)
  if (outcome.found !== 'created') return outcome
  return { found: 'created', row: toExperience(outcome.row) }
}
