import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. Whatever changes who a caller is (state, role,
// organization, products) is announced on the `seaworthy_actors` channel, so every instance can drop
// its cached copy at once, however the change was made (API, CLI, plain SQL).
const statements = [
  `create function seaworthy_notify_user_changed() returns trigger language plpgsql as $$
   begin
     perform pg_notify('seaworthy_actors', old.id::text);
     return null;
   end $$`,
  `create trigger users_actor_changed after update of state, role, organization_id or delete on users
     for each row execute function seaworthy_notify_user_changed()`,
  `create function seaworthy_notify_organization_changed() returns trigger language plpgsql as $$
   begin
     perform pg_notify('seaworthy_actors', 'organization:' || old.id::text);
     return null;
   end $$`,
  `create trigger organizations_actor_changed after update of products or delete on organizations
     for each row execute function seaworthy_notify_organization_changed()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop trigger if exists organizations_actor_changed on organizations').execute(db)
  await sql.raw('drop trigger if exists users_actor_changed on users').execute(db)
  await sql.raw('drop function if exists seaworthy_notify_organization_changed()').execute(db)
  await sql.raw('drop function if exists seaworthy_notify_user_changed()').execute(db)
}
