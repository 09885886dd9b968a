import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. cmi5 §10: an AU reads its LMS.LaunchData State document
// before it sends `initialized`; the session records the read so the LMS can hold the AU to that order.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table learning_sessions add column launch_data_read boolean not null default false`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table learning_sessions drop column launch_data_read`.execute(db)
}
