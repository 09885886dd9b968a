import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. An organization's settings (DECISIONS §10) hold only
// the keys an admin has set; the service fills in the defaults when it reads them.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table organizations add column settings jsonb not null default '{}'::jsonb`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table organizations drop column if exists settings`.execute(db)
}
