import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. A person's verdicts now depend on their other assignments
// (the overlapping_assignment warning): adding, removing, moving or re-dating one marks the holder's stored
// verdicts stale, as their records already do. Once per statement and holder: a bulk insert of many
// assignments of one person bumps its holder once, not once per row.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create function readiness_assignment_holders_changed() returns trigger language plpgsql as $function$
  begin
    if tg_op = 'INSERT' then
      insert into readiness_holders as h (organization_id, user_id, gen)
      select distinct n.organization_id, n.user_id, 1 from new_rows n
      on conflict (organization_id, user_id) do update set gen = h.gen + 1;
    elsif tg_op = 'DELETE' then
      insert into readiness_holders as h (organization_id, user_id, gen)
      select distinct o.organization_id, o.user_id, 1 from old_rows o
      on conflict (organization_id, user_id) do update set gen = h.gen + 1;
    else
      insert into readiness_holders as h (organization_id, user_id, gen)
      select distinct x.organization_id, x.user_id, 1
      from old_rows o join new_rows n on n.id = o.id
      cross join lateral (values (o.organization_id, o.user_id), (n.organization_id, n.user_id)) as x (organization_id, user_id)
      where o.user_id is distinct from n.user_id or o.start_date is distinct from n.start_date or o.end_date is distinct from n.end_date
      on conflict (organization_id, user_id) do update set gen = h.gen + 1;
    end if;
    return null;
  end $function$`.execute(db)
  await sql`create trigger assignments_readiness_holder_insert after insert on assignments
    referencing new table as new_rows for each statement execute function readiness_assignment_holders_changed()`.execute(db)
  await sql`create trigger assignments_readiness_holder_delete after delete on assignments
    referencing old table as old_rows for each statement execute function readiness_assignment_holders_changed()`.execute(db)
  await sql`create trigger assignments_readiness_holder_update after update on assignments
    referencing old table as old_rows new table as new_rows for each statement execute function readiness_assignment_holders_changed()`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger assignments_readiness_holder_update on assignments`.execute(db)
  await sql`drop trigger assignments_readiness_holder_delete on assignments`.execute(db)
  await sql`drop trigger assignments_readiness_holder_insert on assignments`.execute(db)
  await sql`drop function readiness_assignment_holders_changed()`.execute(db)
}
