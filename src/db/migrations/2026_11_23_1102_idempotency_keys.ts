import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. One row per Idempotency-Key of a user: claimed (no
// status yet) while the first request runs, then holding its answer for replays.
const statements = [
  `create table idempotency_keys (
    organization_id uuid not null references organizations(id) on delete cascade,
    user_id uuid not null references users(id) on delete cascade,
    key text not null,
    fingerprint text not null,
    claim uuid not null,
    status_code integer,
    content_type text,
    body text,
    created_at timestamptz not null default now(),
    primary key (organization_id, user_id, key)
  )`,
  'create index idempotency_keys_created_at_idx on idempotency_keys (created_at)',
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table if exists idempotency_keys').execute(db)
}
