import { type Insertable, type Selectable, sql, type Updateable } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { LearningSessionsTable, RegistrationStatus } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { iso, isoOrNull, isoSql } from '../../../lib/dates.js'
import { type EventSource, eventsInsert, objectRows } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { newestFirstPage } from '../../../lib/pagination.js'
import type { MoveOn } from '../packages/packages.schemas.js'
import { scopedRegistrations } from '../registrations/registrations.queries.js'
import type { LearningSession, SessionListQuery } from './launch.schemas.js'
import type { AuState } from './move-on.js'

export type SessionRow = Selectable<LearningSessionsTable>

export const toLearningSession = (row: SessionRow): LearningSession => ({
  id: row.id,
  auIndex: row.au_index,
  launchMode: row.launch_mode,
  startedAt: iso(row.created_at),
  endedAt: isoOrNull(row.ended_at),
  endedBy: row.ended_by,
  durationSeconds: row.duration_seconds,
  completed: row.completed,
  outcome: row.outcome,
  scoreScaled: row.score_scaled,
})

/**
 * The registration, locked for a launch, waive or session write (one at a time per registration, so
 * the ordering rules of cmi5 hold under concurrent requests), with its course and the package version
 * it runs on: the one of its first launch, else the course's current one. Crew reach only their own.
 */
export function lockRegistration(db: Db, orgId: string, registrationId: string, assigneeId?: string) {
  return scopedRegistrations(db, orgId, assigneeId)
    .innerJoin('courses', 'courses.id', 'registrations.course_id')
    .innerJoin('assignments', 'assignments.id', 'registrations.assignment_id')
    .innerJoin('users', 'users.id', 'assignments.user_id')
    .leftJoin('course_packages', (join) =>
      join.on(sql<boolean>`course_packages.id = coalesce(registrations.package_id, courses.package_id)`),
    )
    .selectAll('registrations')
    .select([
      'courses.title as course_title',
      'users.id as user_id',
      'users.first_name',
      'users.last_name',
      'course_packages.id as run_package_id',
      'course_packages.standard',
      'course_packages.publisher_id',
      'course_packages.blocks',
    ])
    .where('registrations.id', '=', registrationId)
    .forUpdate('registrations')
    .executeTakeFirst()
}
export type LockedRegistration = NonNullable<Awaited<ReturnType<typeof lockRegistration>>>

/** The registration enters its package version: it keeps it from then on (`enter`). */
export function enterPackage(db: Db, registrationId: string, packageId: string, status: RegistrationStatus) {
  return db
    .updateTable('registrations')
    .set({ package_id: packageId, status })
    .where('id', '=', registrationId)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** A package version's AUs in launch order. */
export async function packageAus(db: Db, packageId: string) {
  const rows = await db.selectFrom('course_aus').selectAll().where('package_id', '=', packageId).orderBy('au_index').execute()
  return rows.map((row) => ({ ...row, moveOn: row.move_on as MoveOn }))
}
export type AuRow = Awaited<ReturnType<typeof packageAus>>[number]

/** What the registration has achieved per AU. */
export async function auStates(db: Db, registrationId: string): Promise<Map<number, AuState>> {
  const rows = await db.selectFrom('registration_aus').selectAll().where('registration_id', '=', registrationId).execute()
  return new Map(rows.map((row) => [row.au_index, { completed: row.completed, passed: row.passed, waived: row.waived }]))
}

type AuStateChange = {
  au_index: number
  completed?: boolean
  passed?: boolean
  failed?: boolean
  waived?: string | null
  satisfied?: boolean
}

/** Adds to what the registration has of its AUs, in one statement: flags only ever turn on (cmi5 results are never taken back). */
export async function recordAuStates(db: Db, registrationId: string, changes: readonly AuStateChange[]) {
  if (changes.length === 0) return
  const rows = changes.map((change) => ({
    registration_id: registrationId,
    au_index: change.au_index,
    completed: change.completed ?? false,
    passed: change.passed ?? false,
    failed: change.failed ?? false,
    waived: change.waived ?? null,
    satisfied: change.satisfied ?? false,
  }))
  await db
    .insertInto('registration_aus')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['registration_id', 'au_index']).doUpdateSet({
        completed: sql`registration_aus.completed or excluded.completed`,
        passed: sql`registration_aus.passed or excluded.passed`,
        failed: sql`registration_aus.failed or excluded.failed`,
        waived: sql`coalesce(registration_aus.waived, excluded.waived)`,
        satisfied: sql`registration_aus.satisfied or excluded.satisfied`,
      }),
    )
    .execute()
}

export function insertSession(db: Db, row: Insertable<LearningSessionsTable>) {
  return db.insertInto('learning_sessions').values(row).returningAll().executeTakeFirstOrThrow()
}

/** The registration's sessions not yet ended, locked (the caller holds the registration's lock). */
export function openSessions(db: Db, registrationId: string) {
  return db
    .selectFrom('learning_sessions')
    .selectAll()
    .where('registration_id', '=', registrationId)
    .where('ended_at', 'is', null)
    .forUpdate()
    .execute()
}

/** One session of the organization; the caller chooses the selection. */
const orgSession = (db: Db, orgId: string, sessionId: string) =>
  db.selectFrom('learning_sessions').where('organization_id', '=', orgId).where('id', '=', sessionId)

/** The registration of one session of the organization, if there is that session (read without a lock). */
export async function sessionRegistrationId(db: Db, orgId: string, sessionId: string) {
  const row = await orgSession(db, orgId, sessionId).select('registration_id').executeTakeFirst()
  return row?.registration_id
}

/** One session of the organization, locked (its registration is locked first by the caller where both are). */
export function lockSession(db: Db, orgId: string, sessionId: string) {
  return orgSession(db, orgId, sessionId).selectAll().forUpdate().executeTakeFirst()
}

/** The runtime data the last session of the registration's AU committed, for the next one's resume; null when none did. */
export async function lastRuntime(db: Db, registrationId: string, auIndex: number) {
  const row = await db
    .selectFrom('learning_sessions')
    .select('runtime')
    .where('registration_id', '=', registrationId)
    .where('au_index', '=', auIndex)
    .where('runtime', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.runtime ?? null
}

/** A session by id alone with its learner and standard, for its own credential (checked against the secret's hash by the caller). */
export function findSession(db: Db, sessionId: string) {
  return db
    .selectFrom('learning_sessions')
    .innerJoin('registrations', 'registrations.id', 'learning_sessions.registration_id')
    .innerJoin('assignments', 'assignments.id', 'registrations.assignment_id')
    .innerJoin('course_packages', 'course_packages.id', 'learning_sessions.package_id')
    .selectAll('learning_sessions')
    .select(['assignments.user_id', 'course_packages.standard'])
    .where('learning_sessions.id', '=', sessionId)
    .executeTakeFirst()
}

/** cmi5 §10: the session's AU has read its LMS.LaunchData (written once; later reads change nothing). */
export async function recordLaunchDataRead(db: Db, sessionId: string) {
  await db
    .updateTable('learning_sessions')
    .set({ launch_data_read: true })
    .where('id', '=', sessionId)
    .where('launch_data_read', '=', false)
    .execute()
}

export function updateSession(db: Db, sessionId: string, changes: Updateable<LearningSessionsTable>) {
  return db.updateTable('learning_sessions').set(changes).where('id', '=', sessionId).returningAll().executeTakeFirstOrThrow()
}

/**
 * Ends the session; an abandoned one writes its `learning_session.abandoned` event (the session as
 * listed, with its registration) in the same statement.
 */
export function endSessionRow(
  db: Db,
  source: EventSource | Actor,
  sessionId: string,
  end: { endedBy: 'terminated' | 'abandoned'; durationSeconds: number },
) {
  const wire = {
    id: sql.ref('a.id'),
    auIndex: sql.ref('a.au_index'),
    launchMode: sql.ref('a.launch_mode'),
    startedAt: isoSql(sql.ref('a.created_at')),
    endedAt: isoSql(sql.ref('a.ended_at')),
    endedBy: sql.ref('a.ended_by'),
    durationSeconds: sql.ref('a.duration_seconds'),
    completed: sql.ref('a.completed'),
    outcome: sql.ref('a.outcome'),
    scoreScaled: sql.ref('a.score_scaled'),
    registrationId: sql.ref('a.registration_id'),
  }
  return db
    .with('a', (qc) =>
      qc
        .updateTable('learning_sessions')
        .set({ ended_at: new Date(), ended_by: end.endedBy, duration_seconds: end.durationSeconds })
        .where('id', '=', sessionId)
        .returningAll(),
    )
    .with('audit', (qc) =>
      eventsInsert(
        qc,
        source,
        'learning_session.abandoned',
        'learning_session',
        objectRows(wire, sql`a where a.ended_by = 'abandoned'`),
        uuidv7s(1),
      ),
    )
    .selectFrom('a')
    .selectAll()
    .executeTakeFirstOrThrow()
}

/** Spends the one-time fetch and sets the session credential's secret: the first caller with the right secret gets the row, later ones nothing. */
export function spendFetch(db: Db, sessionId: string, fetchHash: string, secretHash: string) {
  return db
    .updateTable('learning_sessions')
    .set({ fetched: true, secret_hash: secretHash })
    .where('id', '=', sessionId)
    .where('fetch_hash', '=', fetchHash)
    .where('fetched', '=', false)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst()
}

const ACCEPTS_UNTIL = sql<Date>`coalesce(accepts_until, expires_at)`

/** Whether a session has stopped taking records: past its expiry, or for one played offline past its `accepts_until` (DECISIONS §16). */
export const closedToRecords = (session: { expires_at: Date; accepts_until: Date | null }) =>
  (session.accepts_until ?? session.expires_at) <= new Date()

/** Open sessions past the time they take records (an offline one's expiry plus 7 days), oldest first, with their organization (of `orgId` alone when given): the abandon sweep's work. */
export function expiredSessions(db: Db, limit: number, orgId?: string) {
  return db
    .selectFrom('learning_sessions')
    .select(['id', 'organization_id', 'registration_id'])
    .$if(orgId !== undefined, (qb) => qb.where('organization_id', '=', orgId!))
    .where('ended_at', 'is', null)
    .where(ACCEPTS_UNTIL, '<=', sql<Date>`now()`)
    .orderBy(ACCEPTS_UNTIL)
    .limit(limit)
    .execute()
}

/** A registration's sessions, newest first, for the caller (crew: their own registrations only). */
export function listSessions(db: Db, orgId: string, registrationId: string, assigneeId: string | undefined, query: SessionListQuery) {
  const filtered = db
    .selectFrom('learning_sessions')
    .where('learning_sessions.organization_id', '=', orgId)
    .where(
      'learning_sessions.registration_id',
      'in',
      scopedRegistrations(db, orgId, assigneeId).select('registrations.id').where('registrations.id', '=', registrationId),
    )
  return newestFirstPage(filtered, (qb) => qb.selectAll('learning_sessions'), 'learning_sessions', query, toLearningSession)
}
