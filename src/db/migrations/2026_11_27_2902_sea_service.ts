import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. Sea service (DECISIONS §14):
//   - experience rows say where they come from: `manual` (typed by people) or `assignment` (made from
//     an ended assignment, at most one per assignment);
//   - a requirement may ask for days of sea service in the role;
//   - sea service is a new input of readiness verdicts (migration 1801): a person's experience and
//     its reviews count in their generation like their documents do, and the verdict now depends on the
//     assignment's start date (sea service is counted as of it), so stored verdicts keep it and are
//     judged afresh once.
const statements = [
  `alter table experiences
    add column source text not null default 'manual' check (source in ('manual', 'assignment')),
    add column assignment_id uuid`,
  `create unique index experiences_assignment_idx on experiences (assignment_id) where assignment_id is not null`,
  'alter table requirements add column min_sea_service_days integer check (min_sea_service_days between 0 and 36500)',
  'delete from readiness_verdicts',
  'alter table readiness_verdicts add column start_date date',
  `create trigger experiences_readiness_insert_delete after insert or delete on experiences
    for each row execute function readiness_holder_changed()`,
  `create trigger experiences_readiness_update after update on experiences for each row
    when ((old.user_id, old.position, old.start_date, old.end_date, old.created_at) is distinct from (new.user_id, new.position, new.start_date, new.end_date, new.created_at))
    execute function readiness_holder_changed()`,
  // Only becoming or ceasing to be verified changes what counts.
  `create trigger verifications_sea_service_update after update on verifications for each row
    when (new.target_type = 'experience' and ((old.status = 'verified') is distinct from (new.status = 'verified') or old.user_id <> new.user_id))
    execute function readiness_holder_changed()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists verifications_sea_service_update on verifications`.execute(db)
  await sql`drop trigger if exists experiences_readiness_update on experiences`.execute(db)
  await sql`drop trigger if exists experiences_readiness_insert_delete on experiences`.execute(db)
  await sql`alter table readiness_verdicts drop column if exists start_date`.execute(db)
  await sql`alter table requirements drop column if exists min_sea_service_days`.execute(db)
  await sql`drop index if exists experiences_assignment_idx`.execute(db)
  await sql`alter table experiences drop column if exists source, drop column if exists assignment_id`.execute(db)
}
