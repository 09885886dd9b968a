import { type Selectable, type SelectQueryBuilder, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB, RegistrationsTable } from '../../../db/schema.js'
import { iso, isoOrNull, isoSql } from '../../../lib/dates.js'
import { newestFirstPage } from '../../../lib/pagination.js'
import { containsPattern } from '../../../lib/search.js'
import { titleMatches } from '../courses/courses.queries.js'
import type { Registration, RegistrationListQuery } from './registrations.schemas.js'

export type RegistrationRow = Selectable<RegistrationsTable>
type Expanded = { user_name?: string | null; course_title?: string | null; ship_name?: string | null }

export function toRegistration(row: RegistrationRow & Expanded): Registration {
  const registration: Registration = {
    id: row.id,
    assignment_id: row.assignment_id,
    course_id: row.course_id,
    status: row.status,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    completed_at: isoOrNull(row.completed_at),
    score_percent: row.score_percent,
    time_spent_seconds: row.time_spent_seconds,
    attempt_count: row.attempt_count,
  }
  if (row.user_name === undefined) return registration
  // The foreign keys guarantee the names exist.
  return { ...registration, user_name: row.user_name!, course_title: row.course_title!, ship_name: row.ship_name! }
}

/** A registration in its single-item wire shape as SQL over `alias`, for the events the statements that write it record. */
export const registrationWire = (alias: string) => ({
  id: sql.ref(`${alias}.id`),
  assignment_id: sql.ref(`${alias}.assignment_id`),
  course_id: sql.ref(`${alias}.course_id`),
  status: sql.ref(`${alias}.status`),
  created_at: isoSql(sql.ref(`${alias}.created_at`)),
  updated_at: isoSql(sql.ref(`${alias}.updated_at`)),
  completed_at: isoSql(sql.ref(`${alias}.completed_at`)),
  score_percent: sql.ref(`${alias}.score_percent`),
  time_spent_seconds: sql.ref(`${alias}.time_spent_seconds`),
  attempt_count: sql.ref(`${alias}.attempt_count`),
})

const userName = sql<string>`users.first_name || ' ' || users.last_name`

/**
 * The organization's registrations; with `assigneeId`, only those of that user's assignments
 * (office employees and crew see their own). Works inside a CTE as well as on its own.
 */
export function scopedRegistrations(db: Pick<Db, 'selectFrom'>, orgId: string, assigneeId?: string) {
  let query = db.selectFrom('registrations').where('registrations.organization_id', '=', orgId)
  if (assigneeId) {
    query = query.where(
      'registrations.assignment_id',
      'in',
      db
        .selectFrom('assignments')
        .select('assignments.id')
        .where('assignments.organization_id', '=', orgId)
        .where('assignments.user_id', '=', assigneeId),
    )
  }
  return query
}

/** All columns, plus the names of the user, course and ship when expanded (one statement, no joins to count). */
function selectRegistration(query: SelectQueryBuilder<DB, 'registrations', {}>, expand: boolean) {
  return query
    .selectAll('registrations')
    .$if(expand, (qb) =>
      qb.select((eb) => [
        eb
          .selectFrom('assignments')
          .innerJoin('users', 'users.id', 'assignments.user_id')
          .select(userName.as('n'))
          .whereRef('assignments.id', '=', 'registrations.assignment_id')
          .as('user_name'),
        eb.selectFrom('courses').select('courses.title').whereRef('courses.id', '=', 'registrations.course_id').as('course_title'),
        eb
          .selectFrom('assignments')
          .innerJoin('ships', 'ships.id', 'assignments.ship_id')
          .select('ships.name')
          .whereRef('assignments.id', '=', 'registrations.assignment_id')
          .as('ship_name'),
      ]),
    )
}

export function findRegistration(db: Db, orgId: string, registrationId: string, options: { assigneeId?: string; expand: boolean }) {
  const query = scopedRegistrations(db, orgId, options.assigneeId).where('registrations.id', '=', registrationId)
  return selectRegistration(query, options.expand).executeTakeFirst()
}

/** Newest first; `search` matches the course title, the user's name or the ship's name. */
export function listRegistrations(db: Db, orgId: string, query: RegistrationListQuery, assigneeId?: string) {
  let filtered = scopedRegistrations(db, orgId, assigneeId)
  if (query.assignment_id) filtered = filtered.where('registrations.assignment_id', '=', query.assignment_id)
  if (query.course_id) filtered = filtered.where('registrations.course_id', '=', query.course_id)
  if (query.status) filtered = filtered.where('registrations.status', '=', query.status)
  if (query.search) {
    const pattern = containsPattern(query.search)
    filtered = filtered.where((eb) =>
      eb.or([
        eb(
          'registrations.course_id',
          'in',
          eb
            .selectFrom('courses')
            .select('courses.id')
            .where('courses.organization_id', '=', orgId)
            .where(titleMatches(pattern)),
        ),
        eb(
          'registrations.assignment_id',
          'in',
          eb
            .selectFrom('assignments')
            .innerJoin('users', 'users.id', 'assignments.user_id')
            .innerJoin('ships', 'ships.id', 'assignments.ship_id')
            .select('assignments.id')
            .where('assignments.organization_id', '=', orgId)
            .where((inner) => inner.or([inner(userName, 'ilike', pattern), inner('ships.name', 'ilike', pattern)])),
        ),
      ]),
    )
  }
  return newestFirstPage(filtered, (qb) => selectRegistration(qb, query.expand), 'registrations', query, toRegistration)
}

/** Whether the registration (visible to the caller) is of a course with a package: its results come from sessions. */
export async function isPackagedRegistration(db: Db, orgId: string, registrationId: string, assigneeId?: string): Promise<boolean> {
  const row = await scopedRegistrations(db, orgId, assigneeId)
    .innerJoin('courses', 'courses.id', 'registrations.course_id')
    .select('registrations.id')
    .where('registrations.id', '=', registrationId)
    .where('courses.package_id', 'is not', null)
    .executeTakeFirst()
  return row !== undefined
}
