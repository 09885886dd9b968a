import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. Suspending a user stamps the instant (to the
// millisecond, as tokens carry `iat`) before which their tokens stay refused even once restored.
// A trigger, so every way of suspending (API, CLI, plain SQL) does it.
const statements = [
  'alter table users add column tokens_valid_after timestamptz',
  `create function seaworthy_stamp_suspension() returns trigger language plpgsql as $$
   begin
     new.tokens_valid_after := date_trunc('milliseconds', clock_timestamp());
     return new;
   end $$`,
  `create trigger users_suspended before update of state on users
     for each row when (new.state = 'suspended' and old.state is distinct from 'suspended')
     execute function seaworthy_stamp_suspension()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop trigger if exists users_suspended on users').execute(db)
  await sql.raw('drop function if exists seaworthy_stamp_suspension()').execute(db)
  await sql.raw('alter table users drop column if exists tokens_valid_after').execute(db)
}
