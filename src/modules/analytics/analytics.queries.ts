import { sql } from 'kysely'
import type { Db } from '../../db/database.js'

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
