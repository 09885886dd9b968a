import type { Selectable } from 'kysely'
import type { Db } from '../../db/database.js'
import type { ExperiencesTable } from '../../db/schema.js'
import { iso } from '../../lib/dates.js'
import { embeddedVerification, selectWithVerification, type VerificationJoin } from '../verifications/records.queries.js'
import { type Experience, experienceKind } from './experience.schemas.js'

type ExperienceRow = Selectable<ExperiencesTable> & VerificationJoin

export const toExperience = (row: ExperienceRow): Experience => ({
  id: row.id,
  companyName: row.company_name,
  position: row.position,
  shipType: row.ship_type,
  startDate: row.start_date,
  endDate: row.end_date,
  notes: row.notes,
  verification: embeddedVerification(row),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
})

const scoped = (db: Db, orgId: string) => selectWithVerification(db, experienceKind).where('r.organization_id', '=', orgId)

/** A user's experience, the most recent position first. */
export async function listExperience(db: Db, orgId: string, userId: string): Promise<Experience[]> {
  const rows = (await scoped(db, orgId)
    .where('r.user_id', '=', userId)
    .orderBy('r.start_date', 'desc')
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .execute()) as ExperienceRow[]
  return rows.map(toExperience)
}

export async function findExperience(db: Db, orgId: string, id: string): Promise<Experience | undefined> {
  const row = (await scoped(db, orgId).where('r.id', '=', id).executeTakeFirst()) as ExperienceRow | undefined
  return row && toExperience(row)
}
