import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. Webhook subscriptions, one delivery row per (event,
// subscription), and the expiry notices already announced (DECISIONS §11). A delivery names its event
// without a foreign key: one would make the append-only trigger's TRUNCATE refusal a foreign-key error,
// and the retention job removes the deliveries of the events it deletes itself.
//
// The fan-out runs in the database, in the transaction that appends the events: a statement-level
// trigger inserts a delivery for every active subscription whose patterns match, and for each a job
// of the pg-boss queue `webhook-delivery` (pg-boss 10's job table, with the queue's own settings).
// pg-boss creates its schema when the service starts; the job insert (plpgsql, planned when first
// run) is reached only when some delivery was created, which needs a subscription, so a started service.
const statements = [
  `create table webhooks (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    url text not null,
    events text[] not null,
    description text,
    active boolean not null default true,
    secret text not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  'create index webhooks_org_created_idx on webhooks (organization_id, created_at desc, id desc)',
  `create table webhook_deliveries (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    webhook_id uuid not null references webhooks(id) on delete cascade,
    event_id uuid not null,
    event_type text not null,
    attempt integer not null default 0,
    status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
    response_status integer,
    duration_ms integer,
    next_attempt_at timestamptz,
    locked_until timestamptz,
    created_at timestamptz not null default clock_timestamp(),
    unique (event_id, webhook_id)
  )`,
  'create index webhook_deliveries_log_idx on webhook_deliveries (webhook_id, created_at desc, id desc)',
  'create index webhook_deliveries_event_idx on webhook_deliveries (event_id)',
  `create table expiry_notices (
    target_type text not null,
    target_id uuid not null,
    expiry_date date not null,
    threshold integer not null,
    organization_id uuid not null references organizations(id),
    created_at timestamptz not null default now(),
    primary key (target_type, target_id, expiry_date, threshold)
  )`,
  // One job of the queue per delivery, carrying the attempt it is for: a job whose delivery has moved
  // on (sent again, re-queued) finds the attempt changed and does nothing.
  `create function webhook_enqueue(ids uuid[], start_at timestamptz) returns void language plpgsql as $$
  begin
    insert into pgboss.job (name, data, start_after, retry_limit, retry_delay, expire_in, policy)
    select q.name, jsonb_build_object('deliveryId', d.id, 'attempt', d.attempt), start_at, coalesce(q.retry_limit, 2),
      coalesce(q.retry_delay, 0), coalesce(q.expire_seconds, 900) * interval '1 second', q.policy
    from webhook_deliveries d cross join pgboss.queue q
    where d.id = any(ids) and q.name = 'webhook-delivery';
  end
  $$`,
  `create function webhook_fan_out() returns trigger language plpgsql as $$
  declare
    created uuid[];
  begin
    with inserted as (
      insert into webhook_deliveries (id, organization_id, webhook_id, event_id, event_type, next_attempt_at)
      select gen_random_uuid(), e.organization_id, w.id, e.id, e.type, clock_timestamp()
      from new_events e
      join webhooks w on w.organization_id = e.organization_id and w.active
      where e.type <> 'webhook.test'
        and exists (
          select 1 from unnest(w.events) p
          where p = '*' or p = e.type or (right(p, 2) = '.*' and starts_with(e.type, left(p, -1)))
        )
      returning id
    )
    select array_agg(id) into created from inserted;
    if created is not null then
      perform webhook_enqueue(created, clock_timestamp());
      perform pg_notify('webhook_deliveries', '');
    end if;
    return null;
  end
  $$`,
  `create trigger webhook_fan_out after insert on events
    referencing new table as new_events for each statement execute function webhook_fan_out()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop trigger if exists webhook_fan_out on events').execute(db)
  await sql.raw('drop function if exists webhook_fan_out()').execute(db)
  await sql.raw('drop function if exists webhook_enqueue(uuid[], timestamptz)').execute(db)
  for (const table of ['expiry_notices', 'webhook_deliveries', 'webhooks']) await sql.raw(`drop table if exists ${table}`).execute(db)
}
