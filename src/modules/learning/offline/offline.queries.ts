import { sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import { scopedRegistrations } from '../registrations/registrations.queries.js'

/**
 * What an offline launch needs of the registration's package version (its own, else the course's current
 * one): the AU's URL and how many files the version lists (none for a version imported before lists were kept).
 */
export function offlineAu(db: Db, orgId: string, registrationId: string, auIndex: number, assigneeId: string | undefined) {
  return scopedRegistrations(db, orgId, assigneeId)
    .innerJoin('courses', 'courses.id', 'registrations.course_id')
    .innerJoin('course_aus', (join) =>
      join
        .on(sql<boolean>`course_aus.package_id = coalesce(registrations.package_id, courses.package_id)`)
        .on('course_aus.au_index', '=', auIndex),
    )
    .select((eb) => [
      'course_aus.url',
      eb
        .selectFrom('course_package_files')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('course_package_files.package_id', '=', 'course_aus.package_id')
        .as('files'),
    ])
    .where('registrations.id', '=', registrationId)
    .executeTakeFirst()
}

/** A session's package version and its files, in path order. */
export function sessionFiles(db: Db, orgId: string, sessionId: string) {
  return db
    .selectFrom('learning_sessions')
    .innerJoin('course_package_files', 'course_package_files.package_id', 'learning_sessions.package_id')
    .select(['learning_sessions.package_id', 'course_package_files.path', 'course_package_files.bytes', 'course_package_files.sha256'])
    .where('learning_sessions.organization_id', '=', orgId)
    .where('learning_sessions.id', '=', sessionId)
    .orderBy('course_package_files.path')
    .execute()
}

/** The sessions a sync names that the caller may sync (crew: their own), with the last commit applied. */
export function syncSessions(db: Db, orgId: string, sessionIds: readonly string[], assigneeId: string | undefined) {
  let query = db
    .selectFrom('learning_sessions')
    .innerJoin('registrations', 'registrations.id', 'learning_sessions.registration_id')
    .innerJoin('assignments', 'assignments.id', 'registrations.assignment_id')
    .select(['learning_sessions.id', 'learning_sessions.commit_seq'])
    .where('learning_sessions.organization_id', '=', orgId)
    .where('learning_sessions.id', 'in', sessionIds)
  if (assigneeId) query = query.where('assignments.user_id', '=', assigneeId)
  return query.execute()
}

/** The last commit a session applied, kept only upwards (a replay never takes it back). */
export async function recordCommitSeq(db: Db, sessionId: string, seq: number) {
  await db
    .updateTable('learning_sessions')
    .set({ commit_seq: seq })
    .where('id', '=', sessionId)
    .where((eb) => eb.or([eb('commit_seq', 'is', null), eb('commit_seq', '<', seq)]))
    .execute()
}
