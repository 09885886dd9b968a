import { sql } from 'kysely'
import { compiledPerShape } from '../../../db/compiled.js'
import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { type EventSource, eventsInsert, wireJson } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { withCourseCertificate } from './course-certificate.queries.js'
import { registrationWire, scopedRegistrations } from './registrations.queries.js'
import { type AttemptCreate, MAX_SECONDS } from './registrations.schemas.js'

const now = sql<Date>`date_trunc('milliseconds', now())`
// Deltas of the course counters, from the registration as locked before this attempt.
const firstAttempt = sql<number>`(reg.attempt_count = 0)::int`
// A registration counts as passed (§4's passRate) once it has passed and has an attempt, whichever came first.
const firstPass = sql<number>`((ins.passed or reg.status = 'passed') and (reg.status <> 'passed' or reg.attempt_count = 0))::int`

/**
 * The event of a new attempt, passed or failed as the attempt was: the registration after it, as
 * its single-item GET shows it (DECISIONS §11), with the attempt's id.
 */
const outcome = (passed: boolean) =>
  sql<{ target_id: string; data: unknown }>`select upd.id as target_id,
      ${wireJson({ ...registrationWire('upd'), attempt_id: sql.ref('ins.attempt_id') })} as data
    from upd join ins on ins.registration_id = upd.id where ins.passed = ${passed}`

/**
 * Records one attempt in one statement: lock the registration (visible to the caller), insert the
 * attempt unless its id is already there, and only when it was inserted, update the registration and
 * the course counters. The lock comes first, so concurrent attempts on one registration queue up and
 * each one reads the counts left by the previous; a concurrent replay finds the first insert and
 * changes nothing. Returns the registration (after the change) and whether the attempt was new;
 * nothing when the registration is not there for the caller.
 */
export async function recordAttempt(
  db: Db,
  source: EventSource | Actor,
  registrationId: string,
  assigneeId: string | undefined,
  attempt: AttemptCreate,
  expiringSoonDays: number,
) {
  const { attemptId, passed, score_percent, time_spent_seconds, finished_at } = attempt
  const [row] = await attemptStatement(db, {
    source,
    registrationId,
    assigneeId,
    // The fields it binds, and no other: every field here shapes the statement.
    attempt: { attemptId, passed, score_percent, time_spent_seconds, finished_at },
    passedEventIds: uuidv7s(1),
    failedEventIds: uuidv7s(1),
    expiringSoonDays,
    certificateEventIds: uuidv7s(1),
  })
  return row
}

interface AttemptValues {
  source: EventSource | Actor
  registrationId: string
  assigneeId: string | undefined
  attempt: AttemptCreate
  passedEventIds: string[]
  failedEventIds: string[]
  expiringSoonDays: number
  certificateEventIds: string[]
}

// Built and compiled once per shape of the attempt: building this statement was a tenth of the
// route's server CPU (profiled).
const attemptStatement = compiledPerShape((db: Db, p: AttemptValues) => {
  const { source, attempt } = p
  const statement = db
    .with('reg', (qb) =>
      scopedRegistrations(qb, source.orgId, p.assigneeId)
        .where('registrations.id', '=', p.registrationId)
        // A packaged course takes its results from its sessions only (DECISIONS §13.5).
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('courses')
                .select('courses.id')
                .whereRef('courses.id', '=', 'registrations.course_id')
                .where('courses.package_id', 'is not', null),
            ),
          ),
        )
        .selectAll()
        .forUpdate(),
    )
    .with('ins', (qb) =>
      qb
        .insertInto('attempts')
        .columns(['registration_id', 'attempt_id', 'organization_id', 'passed', 'score_percent', 'time_spent_seconds', 'finished_at'])
        .expression(
          qb
            .selectFrom('reg')
            .select([
              'reg.id',
              sql<string>`${attempt.attemptId}::uuid`.as('attempt_id'),
              'reg.organization_id',
              sql<boolean>`${attempt.passed}::boolean`.as('passed'),
              sql<number | null>`${attempt.score_percent ?? null}::int`.as('score_percent'),
              sql<number | null>`${attempt.time_spent_seconds ?? null}::int`.as('time_spent_seconds'),
              sql<Date | null>`${attempt.finished_at ?? null}::timestamptz`.as('finished_at'),
            ]),
        )
        .onConflict((oc) => oc.columns(['registration_id', 'attempt_id']).doNothing())
        .returning(['registration_id', 'attempt_id', 'passed', 'score_percent', 'time_spent_seconds', 'finished_at']),
    )
    .with('upd', (qb) =>
      qb
        .updateTable('registrations')
        .from('ins')
        .set({
          attempt_count: sql`registrations.attempt_count + 1`,
          // Saturates at the column's range instead of failing.
          time_spent_seconds: sql`least(registrations.time_spent_seconds::bigint + coalesce(ins.time_spent_seconds, 0), ${MAX_SECONDS})::int`,
          score_percent: sql`greatest(registrations.score_percent, ins.score_percent)`,
          status: sql`case when ins.passed or registrations.status = 'passed' then 'passed' else 'failed' end`,
          completed_at: sql`coalesce(registrations.completed_at, case when ins.passed then coalesce(ins.finished_at, ${now}) end)`,
          updated_at: now,
        })
        .whereRef('registrations.id', '=', 'ins.registration_id')
        .returningAll('registrations'),
    )
  return withCourseCertificate(
    statement,
    sql`select upd.* from upd join reg on reg.id = upd.id where upd.status = 'passed' and reg.status <> 'passed'`,
    source.orgId,
    p.expiringSoonDays,
    p.certificateEventIds,
  )
    .with('stats_upd', (qb) =>
      qb
        .updateTable('course_stats')
        .from(['ins', 'reg'])
        .set({
          attempted: sql`course_stats.attempted + ${firstAttempt}`,
          attempts_total: sql`course_stats.attempts_total + 1`,
          passed: sql`course_stats.passed + ${firstPass}`,
        })
        .whereRef('course_stats.course_id', '=', 'reg.course_id')
        .returning('course_stats.course_id'),
    )
    .with('stats_ins', (qb) =>
      qb
        .insertInto('course_stats')
        .columns(['course_id', 'organization_id', 'enrollments', 'attempted', 'attempts_total', 'passed'])
        .expression(
          // Only when the course has no counters yet: enrollments are counted once, then kept by the writers.
          qb
            .selectFrom(['ins', 'reg'])
            .select((eb) => [
              'reg.course_id',
              'reg.organization_id',
              eb
                .selectFrom('registrations')
                .select(sql<number>`count(*)::int`.as('n'))
                .whereRef('registrations.course_id', '=', 'reg.course_id')
                .as('enrollments'),
              firstAttempt.as('attempted'),
              sql<number>`1`.as('attempts_total'),
              firstPass.as('passed'),
            ])
            .where(({ not, exists, selectFrom }) => not(exists(selectFrom('stats_upd').select('stats_upd.course_id')))),
        )
        .onConflict((oc) =>
          oc.column('course_id').doUpdateSet({
            attempted: sql`course_stats.attempted + excluded.attempted`,
            attempts_total: sql`course_stats.attempts_total + excluded.attempts_total`,
            passed: sql`course_stats.passed + excluded.passed`,
          }),
        ),
    )
    .with('passed_event', (qb) => eventsInsert(qb, source, 'registration.passed', 'registration', outcome(true), p.passedEventIds))
    .with('failed_event', (qb) => eventsInsert(qb, source, 'registration.failed', 'registration', outcome(false), p.failedEventIds))
    .selectFrom('upd')
    .selectAll('upd')
    .select(sql<boolean>`true`.as('created'))
    .unionAll((qb) =>
      qb
        .selectFrom('reg')
        .selectAll('reg')
        .select(sql<boolean>`false`.as('created'))
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('ins').select('ins.registration_id')))),
    )
})

/** Whether the stored attempt has the same content as a replayed one; undefined when it is gone. */
export async function sameAttempt(db: Db, orgId: string, registrationId: string, attempt: AttemptCreate): Promise<boolean | undefined> {
  const row = await db
    .selectFrom('attempts')
    .select(
      sql<boolean>`passed = ${attempt.passed}
        and score_percent is not distinct from ${attempt.score_percent ?? null}::int
        and time_spent_seconds is not distinct from ${attempt.time_spent_seconds ?? null}::int
        and finished_at is not distinct from ${attempt.finished_at ?? null}::timestamptz`.as('same'),
    )
    .where('organization_id', '=', orgId)
    .where('registration_id', '=', registrationId)
    .where('attempt_id', '=', attempt.attemptId)
    .executeTakeFirst()
  return row?.same
}
