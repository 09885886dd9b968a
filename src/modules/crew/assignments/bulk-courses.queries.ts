import { sql } from 'kysely'
import { compiledPerShape } from '../../../db/compiled.js'
import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { type EventSource, eventsInsert } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { anyOf } from './assignments.queries.js'
import { idsWithOrder, orgColumn } from './bulk.queries.js'

// Bulk course changes, each ONE statement whatever the number of ids (see bulk.queries.ts).

/** A time-ordered UUIDv7 made by the database (migration 1701), for rows whose number is only known there. */
const uuidv7Sql = sql<string>`seaworthy_uuid_v7()`

/** Requested ids that are not assignments of the organization (`target`), in request order. */
const failedIds = sql<string[]>`array(select i.id::text from input i where i.id not in (select id from target) order by i.ord)`

/** The CTEs `input(id, ord)`, the requested ids, and `target`, those that are assignments of the organization. */
const withTargets = (db: Db, orgId: string, ids: string[]) =>
  db
    .with('input(id, ord)', () => idsWithOrder(ids))
    .with('target', (qb) => qb.selectFrom('assignments').select('id').where('organization_id', '=', orgId).where('id', '=', anyOf(ids)))

export interface CourseChangeCounts {
  updated_count: number
  total: number
  failed: string[]
}

const courseChangeCounts = (pairs: 'added' | 'removed') => [
  sql<number>`(select count(distinct assignment_id) from ${sql.table(pairs)})::int`.as('updated_count'),
  sql<number>`(select count(*) from ${sql.table(pairs)})::int`.as('total'),
  failedIds.as('failed'),
]

/** One event per assignment that gained (or lost) courses: `data` `{courseIds}`, those actually added (removed). */
const coursesPerAssignment = (pairs: 'added' | 'removed') =>
  sql<{ target_id: string; data: unknown }>`select assignment_id as target_id,
      jsonb_build_object('courseIds', jsonb_agg(course_id order by course_id)) as data
    from ${sql.table(pairs)} group by assignment_id order by assignment_id`

/**
 * Adds the courses to every listed assignment of the organization that lacks them. Each new pair
 * gets a registration (an existing one, kept from an earlier removal, is reused) and each new
 * registration counts once in its course's enrollments.
 */
export async function bulkAddCourses(db: Db, source: EventSource | Actor, ids: string[], courseIds: string[]): Promise<CourseChangeCounts> {
  const [counts] = await addStatement(db, { source, ids, courseIds, eventIds: uuidv7s(ids.length) })
  return counts
}

/** What a bulk course change binds; the statements are built and compiled once (it was most of their server CPU). */
interface CourseChange {
  source: EventSource | Actor
  ids: string[]
  courseIds: string[]
  eventIds: string[]
}

const addStatement = compiledPerShape((db: Db, { source, ids, courseIds, eventIds }: CourseChange) => {
  const { orgId } = source
  return withTargets(db, orgId, ids)
    .with('added', (qb) =>
      qb
        .insertInto('assignment_courses')
        .columns(['assignment_id', 'course_id', 'organization_id'])
        .expression((eb) =>
          eb
            .selectFrom('target as t')
            .crossJoin(sql<{ course_id: string }>`(select unnest(${courseIds}::uuid[]) as course_id)`.as('c'))
            .select(['t.id', 'c.course_id', orgColumn(orgId)]),
        )
        .onConflict((oc) => oc.doNothing())
        .returning(['assignment_id', 'course_id']),
    )
    .with('registered', (qb) =>
      qb
        .insertInto('registrations')
        .columns(['id', 'organization_id', 'assignment_id', 'course_id'])
        .expression((eb) => eb.selectFrom('added').select([uuidv7Sql.as('id'), orgColumn(orgId), 'assignment_id', 'course_id']))
        .onConflict((oc) => oc.columns(['assignment_id', 'course_id']).doNothing())
        .returning('course_id'),
    )
    .with('enrolled', (qb) =>
      qb
        .insertInto('course_stats')
        .columns(['course_id', 'organization_id', 'enrollments'])
        .expression((eb) =>
          eb
            .selectFrom('registered')
            .select(['course_id', orgColumn(orgId), sql<number>`count(*)::int`.as('enrollments')])
            .groupBy('course_id'),
        )
        .onConflict((oc) => oc.column('course_id').doUpdateSet({ enrollments: sql`course_stats.enrollments + excluded.enrollments` })),
    )
    .with('audit', (qb) => eventsInsert(qb, source, 'assignment.courses_assigned', 'assignment', coursesPerAssignment('added'), eventIds))
    .selectNoFrom(courseChangeCounts('added'))
})

/**
 * Removes the courses from every listed assignment of the organization that has them. A removed
 * pair's registration goes too unless it has attempts (history is kept), and leaves its course's
 * enrollments.
 */
export async function bulkRemoveCourses(
  db: Db,
  source: EventSource | Actor,
  ids: string[],
  courseIds: string[],
): Promise<CourseChangeCounts> {
  const [counts] = await removeStatement(db, { source, ids, courseIds, eventIds: uuidv7s(ids.length) })
  return counts
}

const removeStatement = compiledPerShape((db: Db, { source, ids, courseIds, eventIds }: CourseChange) => {
  const { orgId } = source
  return withTargets(db, orgId, ids)
    .with('removed', (qb) =>
      qb
        .deleteFrom('assignment_courses as ac')
        .using('target as t')
        .whereRef('ac.assignment_id', '=', 't.id')
        .where('ac.course_id', '=', anyOf(courseIds))
        .returning(['ac.assignment_id', 'ac.course_id']),
    )
    .with('dropped', (qb) =>
      qb
        .deleteFrom('registrations as r')
        .using('removed as x')
        .where('r.organization_id', '=', orgId)
        .whereRef('r.assignment_id', '=', 'x.assignment_id')
        .whereRef('r.course_id', '=', 'x.course_id')
        .where('r.attempt_count', '=', 0)
        .returning('r.course_id'),
    )
    .with('unenrolled', (qb) =>
      qb
        .updateTable('course_stats as cs')
        .from((eb) =>
          eb
            .selectFrom('dropped')
            .select(['course_id', sql<number>`count(*)::int`.as('n')])
            .groupBy('course_id')
            .as('d'),
        )
        .set({ enrollments: sql`cs.enrollments - d.n` })
        .whereRef('cs.course_id', '=', 'd.course_id'),
    )
    .with('audit', (qb) => eventsInsert(qb, source, 'assignment.courses_removed', 'assignment', coursesPerAssignment('removed'), eventIds))
    .selectNoFrom(courseChangeCounts('removed'))
})

/** Which of these courses belong to the organization, locked against deletion until the transaction ends. */
export async function lockCourses(db: Db, orgId: string, courseIds: string[]): Promise<Set<string>> {
  const rows = await db
    .selectFrom('courses')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('id', '=', anyOf(courseIds))
    .forKeyShare()
    .execute()
  return new Set(rows.map((r) => r.id))
}

/** The curriculum's courses in curriculum order (the curriculum locked against deletion), or null if it is not the organization's. */
export async function curriculumCourses(db: Db, orgId: string, curriculumId: string): Promise<string[] | null> {
  const rows = await db
    .selectFrom('curriculums as c')
    .leftJoin('curriculum_courses as cc', 'cc.curriculum_id', 'c.id')
    .select('cc.course_id')
    .where('c.organization_id', '=', orgId)
    .where('c.id', '=', curriculumId)
    .orderBy('cc.position')
    .forKeyShare('c')
    .execute()
  if (rows.length === 0) return null
  return rows.flatMap((r) => (r.course_id ? [r.course_id] : []))
}
