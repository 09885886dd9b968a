import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. DECISIONS §13.6: a SCORM item may launch an asset (it
// never calls the API: the player counts it completed when visited), and the runtime starts with the
// item's objective ids from the manifest's imsss:objectives.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table course_aus
    add column scorm_asset boolean not null default false,
    add column objective_ids jsonb not null default '[]'::jsonb`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table course_aus drop column scorm_asset, drop column objective_ids`.execute(db)
}
