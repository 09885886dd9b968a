import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code.
//
// The audit trail (DECISIONS §11): one row per event, written in the transaction of the change.
// Append-only: triggers refuse UPDATE, DELETE and TRUNCATE, except in a transaction that set
// `seaworthy.audit_retention` to 'on' (set_config(..., true)), which only the retention job does.
const statements = [
  `create table events (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    type text not null,
    occurred_at timestamptz not null default clock_timestamp(),
    actor_user_id uuid,
    actor_role text,
    target_type text not null,
    target_id uuid,
    data jsonb not null,
    request_id text
  )`,
  // The audit list: newest first within an organization, and its filters by target, actor and type.
  'create index events_org_occurred_idx on events (organization_id, occurred_at desc, id desc)',
  'create index events_org_target_idx on events (organization_id, target_id, occurred_at desc, id desc)',
  'create index events_org_actor_idx on events (organization_id, actor_user_id, occurred_at desc, id desc)',
  'create index events_org_type_idx on events (organization_id, type, occurred_at desc, id desc)',
  `create function seaworthy_events_append_only() returns trigger language plpgsql as $$
   begin
     if coalesce(current_setting('seaworthy.audit_retention', true), '') = 'on' then
       return null;
     end if;
     raise exception 'events are append-only' using errcode = 'insufficient_privilege';
   end $$`,
  `create trigger events_append_only before update or delete or truncate on events
     for each statement execute function seaworthy_events_append_only()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table if exists events').execute(db)
  await sql.raw('drop function if exists seaworthy_events_append_only()').execute(db)
}
