import { type Selectable, type SelectQueryBuilder, sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { compiledOnce } from '../../db/compiled.js'
import type { Db } from '../../db/database.js'
import type { CoursesTable, DB } from '../../db/schema.js'
import { iso } from '../../lib/dates.js'
import { conflict } from '../../lib/errors.js'
import { lockOrgRow } from '../../lib/locked-row.queries.js'
import { afterCursor, decodeCursor, newestFirstPage, toPage } from '../../lib/pagination.js'
import type { ListQuery } from '../../lib/schemas.js'
import { containsPattern } from '../../lib/search.js'
import type { Course, CourseDetail } from './courses.schemas.js'

type CourseRow = Selectable<CoursesTable>

export const toCourse = (row: CourseRow): Course => ({
  id: row.id,
  organization_id: row.organization_id,
  s3_path: row.s3_path,
  launch_file: row.launch_file,
  title: row.title,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  description: row.description,
})

export interface CourseColumns {
  s3_path?: string
  launch_file?: string
  title?: string
  description?: string | null
}

export function insertCourse(db: Db, orgId: string, course: CourseColumns & { s3_path: string; launch_file: string; title: string }) {
  return db
    .insertInto('courses')
    .values({ id: uuidv7(), organization_id: orgId, ...course })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function findCourse(db: Db, orgId: string, courseId: string) {
  return db.selectFrom('courses').selectAll().where('organization_id', '=', orgId).where('id', '=', courseId).executeTakeFirst()
}

export function updateCourse(db: Db, orgId: string, courseId: string, changes: CourseColumns) {
  if (Object.keys(changes).length === 0) return findCourse(db, orgId, courseId)
  return db
    .updateTable('courses')
    .set({ ...changes, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', courseId)
    .returningAll()
    .executeTakeFirst()
}

/**
 * Deletes a course with its curriculum places, assignment links and untried registrations (the
 * foreign keys cascade). A course with any attempt keeps its history: 409. The course row is locked
 * first so no registration can be added meanwhile, and the registrations are locked so an attempt
 * being recorded right now is waited for and seen.
 */
export async function deleteCourse(trx: Db, orgId: string, courseId: string): Promise<CourseRow | undefined> {
  const course = await lockOrgRow(trx, 'courses', orgId, courseId)
  if (!course) return undefined
  const locked = trx.selectFrom('registrations').select('attempt_count').where('course_id', '=', courseId).forUpdate()
  const result = await trx
    .selectFrom(locked.as('r'))
    .select(sql<boolean>`coalesce(max(r.attempt_count), 0) > 0`.as('tried'))
    .executeTakeFirstOrThrow()
  if (result.tried) throw conflict('The course has registrations with attempts; their history cannot be deleted')
  await trx.deleteFrom('courses').where('organization_id', '=', orgId).where('id', '=', courseId).execute()
  return course
}

/** A course's columns with its enrollment count, from the per-course counters. */
const withEnrollments = <O>(qb: SelectQueryBuilder<DB, 'courses', O>) =>
  qb.select((eb) => [
    'courses.id',
    'courses.title',
    'courses.description',
    'courses.created_at',
    eb.fn
      .coalesce(
        eb.selectFrom('course_stats').select('course_stats.enrollments').whereRef('course_stats.course_id', '=', 'courses.id'),
        eb.lit(0),
      )
      .as('enrollment_count'),
  ])

type CourseListRow = { id: string; title: string; description: string | null; created_at: Date; enrollment_count: number }

const toCourseDetail = (row: CourseListRow): CourseDetail => ({
  id: row.id,
  title: row.title,
  description: row.description,
  createdAt: iso(row.created_at),
  enrollmentCount: row.enrollment_count,
})

// The unfiltered pages, the ones integrations page through: compiled once, with and without a cursor.
const newest = (db: Db, p: { orgId: string; limit: number }) =>
  withEnrollments(db.selectFrom('courses').where('courses.organization_id', '=', p.orgId))
    .orderBy('courses.created_at', 'desc')
    .orderBy('courses.id', 'desc')
    .limit(p.limit)
const firstPage = compiledOnce(newest)
const laterPage = compiledOnce((db: Db, p: { orgId: string; limit: number; at: string; id: string }) =>
  newest(db, p).where(afterCursor('courses.created_at', 'courses.id', [p.at, p.id], 'desc')),
)

/**
 * Newest first; the enrollment count comes from the per-course counters in the same statement.
 * `filtered` is the courses alone and the counters are looked up for the page's rows only: joined
 * there, even unused, they keep PostgreSQL from counting (include_count) from the index on
 * organization_id alone.
 */
export async function listCourses(db: Db, orgId: string, query: ListQuery) {
  if (!query.search && !query.include_count) {
    const cursor = decodeCursor(query.cursor)
    const limit = query.limit + 1
    const rows = cursor ? await laterPage(db, { orgId, limit, at: cursor[0], id: cursor[1] }) : await firstPage(db, { orgId, limit })
    return toPage(rows, query.limit, (row) => [row.created_at.toISOString(), row.id], toCourseDetail)
  }
  let filtered = db.selectFrom('courses').where('courses.organization_id', '=', orgId)
  if (query.search) filtered = filtered.where('courses.title', 'ilike', containsPattern(query.search))
  return newestFirstPage(filtered, withEnrollments, 'courses', query, toCourseDetail)
}
