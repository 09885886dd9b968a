import { type Selectable, type SelectQueryBuilder, sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { compiledOnce } from '../../../db/compiled.js'
import type { Db } from '../../../db/database.js'
import { SAME_PLAN_FOR_ANY_PATTERN } from '../../../db/named-statements.js'
import type { CoursesTable, DB } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { fieldsSql } from '../../../lib/columns.js'
import { iso, isoSql } from '../../../lib/dates.js'
import { conflict } from '../../../lib/errors.js'
import { type EventSource, eventsInsert, objectRows, updatedRows } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { lockOrgRow } from '../../../lib/locked-row.queries.js'
import { afterCursor, decodeCursor, microsecondText, newestFirstPage, toPage } from '../../../lib/pagination.js'
import type { ListQuery } from '../../../lib/schemas.js'
import { containsPattern } from '../../../lib/search.js'
import { type CertificateTemplate, COURSE_COLUMNS, type Course, type CourseDetail } from './courses.schemas.js'

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
  certificate:
    row.certificate_type === null || row.certificate_validity_months === null
      ? null
      : { certificateType: row.certificate_type, validityMonths: row.certificate_validity_months },
})

export interface CourseColumns {
  s3_path?: string
  launch_file?: string
  title?: string
  description?: string | null
  certificate_type?: CertificateTemplate['certificateType'] | null
  certificate_validity_months?: number | null
}

/** The columns of a course's certificate template: both null when it has none. */
export const certificateColumns = (template: CertificateTemplate | null) => ({
  certificate_type: template?.certificateType ?? null,
  certificate_validity_months: template?.validityMonths ?? null,
})

export function findCourse(db: Db, orgId: string, courseId: string) {
  return db.selectFrom('courses').selectAll().where('organization_id', '=', orgId).where('id', '=', courseId).executeTakeFirst()
}

/** A course in its wire shape as SQL over `alias`, for the events the statements below write. */
const courseWire = (alias: string) => ({
  id: sql.ref(`${alias}.id`),
  organization_id: sql.ref(`${alias}.organization_id`),
  ...fieldsSql(COURSE_COLUMNS, alias),
  certificate: sql`case when ${sql.ref(`${alias}.certificate_type`)} is null then null
    else jsonb_build_object('certificateType', ${sql.ref(`${alias}.certificate_type`)}, 'validityMonths', ${sql.ref(`${alias}.certificate_validity_months`)}) end`,
  created_at: isoSql(sql.ref(`${alias}.created_at`)),
  updated_at: isoSql(sql.ref(`${alias}.updated_at`)),
})

/** Creates the course and its `course.created` event in one statement. */
export async function insertCourse(
  db: Db,
  source: EventSource | Actor,
  course: CourseColumns & { s3_path: string; launch_file: string; title: string },
): Promise<Course> {
  const row = await db
    .with('a', (qc) =>
      qc
        .insertInto('courses')
        .values({ id: uuidv7(), organization_id: source.orgId, ...course })
        .returningAll(),
    )
    .with('audit', (qc) => eventsInsert(qc, source, 'course.created', 'course', objectRows(courseWire('a'), 'a'), uuidv7s(1)))
    .selectFrom('a')
    .selectAll()
    .executeTakeFirstOrThrow()
  return toCourse(row)
}

/**
 * Updates the course and writes its `course.updated` event (none when no field changed) in one
 * statement; undefined when there is none. `o` locks the row, so it is the version the update replaces.
 */
export async function updateCourse(
  db: Db,
  source: EventSource | Actor,
  courseId: string,
  changes: CourseColumns,
): Promise<Course | undefined> {
  const { orgId } = source
  if (Object.keys(changes).length === 0) {
    const row = await findCourse(db, orgId, courseId)
    return row && toCourse(row)
  }
  const row = await db
    .with('o', (qc) => qc.selectFrom('courses').selectAll().where('organization_id', '=', orgId).where('id', '=', courseId).forUpdate())
    .with('a', (qc) =>
      qc
        .updateTable('courses')
        .set({ ...changes, updated_at: new Date() })
        .where('id', 'in', qc.selectFrom('o').select('o.id'))
        .returningAll(),
    )
    .with('audit', (qc) => eventsInsert(qc, source, 'course.updated', 'course', updatedRows(courseWire), uuidv7s(1)))
    .selectFrom('a')
    .selectAll()
    .executeTakeFirst()
  return row && toCourse(row)
}

/**
 * Deletes a course with its curriculum places, assignment links and untried registrations (the
 * foreign keys cascade), and writes its `course.deleted` event. A course with any attempt keeps its
 * history: 409. Two statements in a transaction: the course row is locked first, so that no
 * registration can be added meanwhile and the second statement's snapshot sees every registration
 * (one statement's snapshot would predate a registration committed while it waited for the lock);
 * that statement locks the registrations (an attempt being recorded right now is waited for and
 * seen), checks them and deletes. False when there is no such course.
 */
export async function deleteCourse(db: Db, source: EventSource | Actor, courseId: string): Promise<boolean> {
  const { orgId } = source
  return db.transaction().execute(async (trx) => {
    if (!(await lockOrgRow(trx, 'courses', orgId, courseId))) return false
    const row = await trx
      .with('r', (qc) => qc.selectFrom('registrations').select('attempt_count').where('course_id', '=', courseId).forUpdate())
      .with('t', (qc) => qc.selectFrom('r').select(sql<boolean>`coalesce(max(r.attempt_count), 0) > 0`.as('tried')))
      .with('a', (qc) =>
        qc
          .deleteFrom('courses')
          .where('organization_id', '=', orgId)
          .where('id', '=', courseId)
          .where(({ not, exists, selectFrom }) => not(exists(selectFrom('t').select('t.tried').where('t.tried', '=', true))))
          .returningAll(),
      )
      .with('audit', (qc) => eventsInsert(qc, source, 'course.deleted', 'course', objectRows(courseWire('a'), 'a'), uuidv7s(1)))
      .selectFrom('t')
      .leftJoin('a', (join) => join.onTrue())
      .select('a.id')
      .executeTakeFirstOrThrow()
    if (row.id === null) throw conflict('The course has registrations with attempts; their history cannot be deleted')
    return true
  })
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

/**
 * A course whose title matches an `ilike` pattern, as `ilike` matches it (lower of both, then like),
 * against the title lowered once when it was written (`title_search`) rather than for every row read.
 */
export const titleMatches = (pattern: string) => sql<boolean>`courses.title_search like lower(${pattern})`

// The pages integrations and the console page through, with and without a search: compiled once each.
const newest = (db: Db, p: { orgId: string; limit: number }) =>
  withEnrollments(db.selectFrom('courses').where('courses.organization_id', '=', p.orgId))
    .select(microsecondText('courses.created_at').as('cursor_at'))
    .orderBy('courses.created_at', 'desc')
    .orderBy('courses.id', 'desc')
    .limit(p.limit)
type Cursor = { at: string; id: string }
const afterRow = (p: Cursor) => afterCursor('courses.created_at', 'courses.id', [p.at, p.id], 'desc')
const firstPage = compiledOnce(newest)
const laterPage = compiledOnce((db: Db, p: { orgId: string; limit: number } & Cursor) => newest(db, p).where(afterRow(p)))

/** How many of the newest courses a search reads before it leaves the plan to PostgreSQL (`searchPage`). */
export const SEARCH_WINDOW = 1000
type Search = { orgId: string; limit: number; pattern: string }

// A search first reads the newest SEARCH_WINDOW courses (after the cursor) by the index and filters them:
// one plan for every term, so the statement is prepared once (db/named-statements.ts). A term that fills
// the page there is answered; one too rare for that is searched again, planned with its value, which
// PostgreSQL answers by the newest-first index for a common term and by the trigram index
// (courses_title_search_trgm_idx) for a rare one (docs/performance.md shows the plans).
const inWindow = (db: Db, p: Search, after?: (qb: SelectQueryBuilder<DB, 'courses', object>) => SelectQueryBuilder<DB, 'courses', object>) => {
  const recent = db
    .selectFrom('courses')
    .select(['courses.id', 'courses.title', 'courses.description', 'courses.created_at', 'courses.title_search'])
    .where('courses.organization_id', '=', p.orgId)
  return withEnrollments(
    db.selectFrom(
      (after ? after(recent) : recent)
        .orderBy('courses.created_at', 'desc')
        .orderBy('courses.id', 'desc')
        .limit(SEARCH_WINDOW)
        .as('courses'),
    ) as unknown as SelectQueryBuilder<DB, 'courses', object>,
  )
    .select(microsecondText('courses.created_at').as('cursor_at'))
    // titleMatches' rule, its pattern lowered once per execution (a generic plan would lower it per row); the
    // statement planned per term keeps lower(pattern) a constant, which the planner reads to choose its index.
    .where(sql<boolean>`courses.title_search like (select lower(${p.pattern}))`)
    .orderBy('courses.created_at', 'desc')
    .orderBy('courses.id', 'desc')
    .limit(p.limit)
    .modifyEnd(sql.raw(SAME_PLAN_FOR_ANY_PATTERN))
}
const firstInWindow = compiledOnce((db: Db, p: Search) => inWindow(db, p))
const laterInWindow = compiledOnce((db: Db, p: Search & Cursor) => inWindow(db, p, (qb) => qb.where(afterRow(p))))
const matching = (db: Db, p: Search) => newest(db, p).where(titleMatches(p.pattern))
const firstMatches = compiledOnce(matching)
const laterMatches = compiledOnce((db: Db, p: Search & Cursor) => matching(db, p).where(afterRow(p)))

/** A page of a search: from the window when it fills the page, else planned with its term. */
async function searchPage(db: Db, p: Search, at: Cursor | null) {
  const found = await (at ? laterInWindow(db, { ...p, ...at }) : firstInWindow(db, p))
  if (found.length === p.limit) return found
  return at ? laterMatches(db, { ...p, ...at }) : firstMatches(db, p)
}

/**
 * Newest first; the enrollment count comes from the per-course counters in the same statement.
 * `filtered` is the courses alone and the counters are looked up for the page's rows only: joined
 * there, even unused, they keep PostgreSQL from counting (include_count) from the index on
 * organization_id alone.
 */
export async function listCourses(db: Db, orgId: string, query: ListQuery) {
  if (!query.include_count) {
    const cursor = decodeCursor(query.cursor)
    const limit = query.limit + 1
    const at = cursor && { at: cursor[0], id: cursor[1] }
    const rows = query.search
      ? await searchPage(db, { orgId, limit, pattern: containsPattern(query.search) }, at ?? null)
      : await (at ? laterPage(db, { orgId, limit, ...at }) : firstPage(db, { orgId, limit }))
    return toPage(rows, query.limit, (row) => [row.cursor_at, row.id], toCourseDetail)
  }
  let filtered = db.selectFrom('courses').where('courses.organization_id', '=', orgId)
  if (query.search) filtered = filtered.where(titleMatches(containsPattern(query.search)))
  return newestFirstPage(filtered, withEnrollments, 'courses', query, toCourseDetail)
}
