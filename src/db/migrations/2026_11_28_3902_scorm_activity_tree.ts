import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. DECISIONS §13.6: a SCORM 2004 package's organization as
// an activity tree with each activity's sequencing (scorm-again's activity settings), read once at import.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table course_packages add column activity_tree jsonb`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table course_packages drop column activity_tree`.execute(db)
}
