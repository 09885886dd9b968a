import { type QueryCreator, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { type EventSource, type EventType, eventsInsert, objectRows, wireJson } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { withCourseCertificate } from '../registrations/course-certificate.queries.js'
import { type RegistrationRow, registrationWire } from '../registrations/registrations.queries.js'
import { MAX_SECONDS } from '../registrations/registrations.schemas.js'

const now = sql<Date>`date_trunc('milliseconds', now())`

/**
 * The event of the registration the statement updated into `a`, as its single-item GET shows it, with
 * the session as `attempt_id`; only `when` (so that the statement stays one whichever way it goes).
 */
const registrationEvent = (source: EventSource | Actor, type: EventType, sessionId: string, when: boolean) => (qc: QueryCreator<any>) =>
  eventsInsert(
    qc,
    source,
    type,
    'registration',
    sql`select a.id as target_id, ${wireJson({ ...registrationWire('a'), attempt_id: sql`${sessionId}::text` })} as data from a where ${when}::boolean`,
    uuidv7s(1),
  )

/** The course's counters (course difficulty, §4): created with the enrollments on first use, then added to. */
function addCourseStats(db: Db, row: RegistrationRow, add: { attempted: number; attemptsTotal: number; passed: number }) {
  return sql`insert into course_stats (course_id, organization_id, enrollments, attempted, attempts_total, passed)
    select ${row.course_id}::uuid, ${row.organization_id}::uuid,
      (select count(*)::int from registrations where course_id = ${row.course_id}::uuid),
      ${add.attempted}::int, ${add.attemptsTotal}::int, ${add.passed}::int
    on conflict (course_id) do update set attempted = course_stats.attempted + excluded.attempted,
      attempts_total = course_stats.attempts_total + excluded.attempts_total, passed = course_stats.passed + excluded.passed`.execute(db)
}

/**
 * The course is satisfied (every AU met its moveOn, or was waived): the registration passes, in the
 * transaction of the statement or waive that decided it (DECISIONS §13.5), with the certificate a
 * course issues (§14); its triggers follow: readiness.
 */
export async function passRegistration(
  db: Db,
  source: EventSource | Actor,
  registration: RegistrationRow,
  sessionId: string,
  expiringSoonDays: number,
) {
  if (registration.status === 'passed') return registration
  const update = db
    .with('a', (qc) =>
      qc
        .updateTable('registrations')
        .set({ status: 'passed', completed_at: now, updated_at: now })
        .where('id', '=', registration.id)
        .returningAll(),
    )
    .with('audit', registrationEvent(source, 'registration.passed', sessionId, true))
  const passed = await withCourseCertificate(update, sql`select a.* from a`, source.orgId, expiringSoonDays, uuidv7s(1))
    .selectFrom('a')
    .selectAll()
    .executeTakeFirstOrThrow()
  // passRate counts registrations with an attempt (§4): one that passes mid-session or by a waive is
  // counted when its first attempt ends.
  await addCourseStats(db, registration, { attempted: 0, attemptsTotal: 0, passed: passed.attempt_count > 0 ? 1 : 0 })
  return passed
}

/**
 * A session ended (terminated or abandoned): one attempt in §4's sense, with the session id as its
 * attemptId (a replay counts once). Attempts, time and best score follow §4; a session that failed
 * makes a failed registration unless it has passed; one that neither passed nor failed leaves it in progress.
 */
export async function recordSessionAttempt(
  db: Db,
  source: EventSource | Actor,
  registration: RegistrationRow,
  session: { id: string; failed: boolean; scorePercent: number | null; seconds: number },
) {
  const inserted = await db
    .insertInto('attempts')
    .values({
      registration_id: registration.id,
      attempt_id: session.id,
      organization_id: registration.organization_id,
      passed: registration.status === 'passed',
      score_percent: session.scorePercent,
      time_spent_seconds: session.seconds,
      finished_at: now,
    })
    .onConflict((oc) => oc.columns(['registration_id', 'attempt_id']).doNothing())
    .returning('attempt_id')
    .executeTakeFirst()
  if (!inserted) return registration
  const status =
    registration.status === 'passed' ? 'passed' : session.failed ? 'failed' : registration.status === 'failed' ? 'failed' : 'in_progress'
  const updated = await db
    .with('a', (qc) =>
      qc
        .updateTable('registrations')
        .set({
          attempt_count: sql`attempt_count + 1`,
          // Saturates at the column's range instead of failing.
          time_spent_seconds: sql`least(time_spent_seconds::bigint + ${session.seconds}, ${MAX_SECONDS})::int`,
          score_percent: sql`greatest(score_percent, ${session.scorePercent}::int)`,
          status,
          updated_at: now,
        })
        .where('id', '=', registration.id)
        .returningAll(),
    )
    .with('audit', registrationEvent(source, 'registration.failed', session.id, status === 'failed' && session.failed))
    .selectFrom('a')
    .selectAll()
    .executeTakeFirstOrThrow()
  const first = registration.attempt_count === 0
  await addCourseStats(db, registration, {
    attempted: first ? 1 : 0,
    attemptsTotal: 1,
    passed: first && registration.status === 'passed' ? 1 : 0,
  })
  return updated
}

/**
 * The `registration.waived` event: the registration as the waive left it, with the AU and the reason.
 * A statement of its own, after the several writes of the waive it records.
 */
export async function recordWaiver(db: Db, actor: Actor, registrationId: string, waiver: { auIndex: number; reason: string }) {
  const wire = { ...registrationWire('a'), auIndex: sql`${waiver.auIndex}::int`, reason: sql`${waiver.reason}::text` }
  await eventsInsert<DB>(
    db,
    actor,
    'registration.waived',
    'registration',
    objectRows(wire, sql`registrations a where a.id = ${registrationId}::uuid`),
    uuidv7s(1),
  ).execute()
}
