import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. A person's verdicts now depend on their other assignments
// (the overlapping_assignment warning): adding, removing, moving or re-dating one marks the holder's stored
// verdicts stale, as their records already do.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create trigger assignments_readiness_holder_insert_delete after insert or delete on assignments
    for each row execute function readiness_holder_changed()`.execute(db)
  await sql`create trigger assignments_readiness_holder_update after update on assignments for each row
    when (old.user_id is distinct from new.user_id or old.start_date is distinct from new.start_date or old.end_date is distinct from new.end_date)
    execute function readiness_holder_changed()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger assignments_readiness_holder_update on assignments`.execute(db)
  await sql`drop trigger assignments_readiness_holder_insert_delete on assignments`.execute(db)
}
