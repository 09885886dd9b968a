import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. DECISIONS §13.6: a SCORM 2004 course played with sequencing
// keeps one sequencing state per registration (scorm-again's serialized activity tree state, and the
// shared data buckets of adl.data), for a learner who suspends all to resume at the activity left.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table scorm_sequencing_states (
    registration_id uuid primary key references registrations(id) on delete cascade,
    organization_id uuid not null,
    state text not null,
    shared_data jsonb not null,
    updated_at timestamptz not null default now()
  )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table scorm_sequencing_states`.execute(db)
}
