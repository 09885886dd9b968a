import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. The audit trail (DECISIONS §11): append-only, enforced
// here; only the retention job, with the transaction-local setting seaworthy.audit_retention = 'on',
// may delete.
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
  'create index events_org_time_idx on events (organization_id, occurred_at desc, id desc)',
  'create index events_org_target_idx on events (organization_id, target_id)',
  'create index events_org_actor_idx on events (organization_id, actor_user_id)',
  `create function events_append_only() returns trigger language plpgsql as $$
  begin
    if coalesce(current_setting('seaworthy.audit_retention', true), '') = 'on' then
      return case when tg_op = 'DELETE' then old else new end;
    end if;
    raise exception 'events are append-only' using errcode = '42501';
  end
  $$`,
  `create trigger events_append_only before update or delete on events
    for each row execute function events_append_only()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table if exists events').execute(db)
  await sql.raw('drop function if exists events_append_only()').execute(db)
}
