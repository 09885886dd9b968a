import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. Course difficulty's passRate (DECISIONS §4) is the share
// of registrations with an attempt that passed; a pass before the first attempt ended (mid-session or
// by a waive) was counted without its attempt, so a course could read a passRate above 1. Recounted once
// from the registrations; the writers keep it from here.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`update course_stats cs set passed = (select count(*)::int from registrations r
    where r.course_id = cs.course_id and r.status = 'passed' and r.attempt_count > 0)`.execute(db)
}

// The recount changes no shape: nothing to undo.
export async function down(): Promise<void> {}
