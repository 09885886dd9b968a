import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code.
//
// A user holds at most one active assignment per ship; active means end_date is null or not before
// today (UTC). "Today" moves, so no unique index or exclusion constraint can state the rule; but time
// only ever ends assignments, so it can break only when a write makes a row active: an insert, or an
// update of end_date, user_id or ship_id. After each such statement this checks, set-based, the
// (user, ship) pairs that gained an active row. Per pair it first takes a transaction-scoped advisory
// lock (in key order, so two statements never wait on each other in a cycle); the check that follows
// runs on a fresh snapshot (READ COMMITTED), so it sees whatever a concurrent writer of the same pair
// committed while this one waited, and two concurrent writers cannot both succeed.
const statements = [
  `create function seaworthy_one_active_assignment() returns trigger language plpgsql as $$
   declare
     today constant date := (now() at time zone 'utc')::date;
     orgs uuid[];
     users uuid[];
     ships uuid[];
   begin
     if tg_op = 'INSERT' then
       select array_agg(organization_id), array_agg(user_id), array_agg(ship_id) into orgs, users, ships
       from (select distinct organization_id, user_id, ship_id from new_rows where end_date is null or end_date >= today) p;
     else
       select array_agg(organization_id), array_agg(user_id), array_agg(ship_id) into orgs, users, ships
       from (
         select distinct n.organization_id, n.user_id, n.ship_id
         from new_rows n join old_rows o on o.id = n.id
         where (n.end_date is null or n.end_date >= today)
           and not ((o.end_date is null or o.end_date >= today) and o.user_id = n.user_id and o.ship_id = n.ship_id)
       ) p;
     end if;
     if users is null then
       return null;
     end if;
     perform pg_advisory_xact_lock(k.key)
     from (select distinct hashtextextended(u::text || s::text, 0) as key from unnest(users, ships) as p(u, s) order by 1) k;
     if exists (
       select 1
       from unnest(orgs, users, ships) as p(o, u, s)
       join assignments a on a.organization_id = p.o and a.user_id = p.u and a.ship_id = p.s
       where a.end_date is null or a.end_date >= today
       group by p.o, p.u, p.s
       having count(*) > 1
     ) then
       raise exception 'A user may hold at most one active assignment per ship'
         using errcode = 'unique_violation', constraint = 'assignments_one_active_per_user_ship';
     end if;
     return null;
   end $$`,
  // Transition tables allow neither a column list nor two events on one trigger: one per event.
  `create trigger assignments_one_active_insert after insert on assignments
     referencing new table as new_rows for each statement execute function seaworthy_one_active_assignment()`,
  `create trigger assignments_one_active_update after update on assignments
     referencing old table as old_rows new table as new_rows for each statement execute function seaworthy_one_active_assignment()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop trigger if exists assignments_one_active_update on assignments').execute(db)
  await sql.raw('drop trigger if exists assignments_one_active_insert on assignments').execute(db)
  await sql.raw('drop function if exists seaworthy_one_active_assignment()').execute(db)
}
