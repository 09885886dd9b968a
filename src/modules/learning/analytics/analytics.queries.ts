import { sql } from 'kysely'
import type { Db } from '../../../db/database.js'

// Exactly the expressions of course_stats_difficulty_idx (initial migration), so that the hardest
// courses are read in index order with a limit instead of sorting every course of the organization.
const passRate = sql<number>`(case when attempted = 0 then 0::float8 else passed::float8 / attempted end)`
const avgAttempts = sql<number>`(case when attempted = 0 then 0::float8 else attempts_total::float8 / attempted end)`

/** Courses with at least one registration, hardest first (DECISIONS §9 ties), from the per-course counters. */
export function courseDifficultyQuery(db: Db, orgId: string, limit: number) {
  return db
    .selectFrom('course_stats')
    .innerJoin('courses', 'courses.id', 'course_stats.course_id')
    .select([
      'course_stats.course_id as courseId',
      'courses.title as course',
      avgAttempts.as('avgAttempts'),
      passRate.as('passRate'),
      'course_stats.enrollments',
    ])
    .where('course_stats.organization_id', '=', orgId)
    .where('course_stats.enrollments', '>', 0)
    .orderBy(passRate, 'asc')
    .orderBy(avgAttempts, 'desc')
    .orderBy('course_stats.enrollments', 'desc')
    .orderBy('course_stats.course_id', 'asc')
    .limit(limit)
}

const ANSWERED = 'http://adlnet.gov/expapi/verbs/answered'
const INTERACTION = 'http://adlnet.gov/expapi/activities/cmi.interaction'

/**
 * The questions answered in a course's registrations, hardest first (lowest correctRate, then activityId in byte
 * order, whatever the database's collation), in one statement. A question is an `answered` statement or one whose object is a `cmi.interaction` activity,
 * not voided, with a `result.success`. Each registration counts once per question, by its latest answer
 * (stored order): it is one learner and has one outcome, so retries do not weigh it more. `corr` (Pearson) of
 * two 0/1 variables is the phi coefficient; PostgreSQL answers null when either does not vary.
 * The course is the statement's first table, so an unknown course answers no row at all and a course
 * without questions one row of nulls: the route tells a 404 from an empty list without a second statement.
 */
export function questionDifficultyQuery(db: Db, orgId: string, courseId: string, limit: number) {
  return db
    .with('answers', (qb) =>
      qb
        .selectFrom('registrations as r')
        .innerJoin('xapi_statements as s', (join) => join.on('s.organization_id', '=', orgId).onRef('s.registration', '=', 'r.id'))
        .distinctOn(['s.registration', 's.activity_id'])
        .select([
          's.activity_id',
          sql<number>`(s.statement #>> '{result,success}')::boolean::int::float8`.as('correct'),
          sql<number>`(r.status = 'passed')::int::float8`.as('passed'),
        ])
        .where('r.organization_id', '=', orgId)
        .where('r.course_id', '=', courseId)
        .where('s.voided', '=', false)
        .where('s.activity_id', 'is not', null)
        .where(sql`s.statement #> '{result,success}'`, 'is not', null)
        .where((eb) => eb.or([eb('s.verb_id', '=', ANSWERED), eb(sql`s.statement #>> '{object,definition,type}'`, '=', INTERACTION)]))
        .orderBy('s.registration')
        .orderBy('s.activity_id')
        .orderBy('s.stored', 'desc')
        .orderBy('s.seq', 'desc'),
    )
    .with('questions', (qb) =>
      qb
        .selectFrom('answers')
        .select([
          'activity_id',
          sql<number>`count(*)::int`.as('attempts'),
          sql<number>`avg(correct)`.as('correct_rate'),
          sql<number | null>`corr(correct, passed)`.as('discrimination'),
        ])
        .groupBy('activity_id'),
    )
    .selectFrom('courses as c')
    .leftJoin('questions as q', (join) => join.onTrue())
    .leftJoin('xapi_activities as a', (join) => join.on('a.organization_id', '=', orgId).onRef('a.id', '=', 'q.activity_id'))
    .select([
      'q.activity_id as activityId',
      sql<string | null>`coalesce(a.definition #>> '{description,en-US}',
        (select d.value from jsonb_each_text(a.definition -> 'description') as d order by d.key collate "C" limit 1))`.as('description'),
      'q.attempts',
      'q.correct_rate as correctRate',
      'q.discrimination',
    ])
    .where('c.organization_id', '=', orgId)
    .where('c.id', '=', courseId)
    .orderBy('q.correct_rate', 'asc')
    .orderBy(sql`q.activity_id collate "C"`, 'asc')
    .limit(limit)
}
