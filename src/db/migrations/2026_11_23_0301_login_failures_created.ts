import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code.
// Failed logins older than the throttling window are deleted after each failure; this finds them
// without reading the whole table.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index login_failures_created_idx on login_failures (created_at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists login_failures_created_idx`.execute(db)
}
