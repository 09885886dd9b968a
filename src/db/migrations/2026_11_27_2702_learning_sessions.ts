import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. Launch sessions (DECISIONS §13.4): one row per launch
// of an AU or SCO for a registration, with the secrets of its one-time fetch and of its session
// credential stored as hashes; per registration and AU what the learner has achieved (cmi5 moveOn);
// and the package version a registration was first launched on, which it keeps when the course's
// package is replaced.
const statements = [
  `alter table registrations add column package_id uuid references course_packages(id) on delete set null`,
  `create table learning_sessions (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    registration_id uuid not null references registrations(id) on delete cascade,
    package_id uuid not null references course_packages(id) on delete cascade,
    au_index integer not null,
    launch_mode text not null check (launch_mode in ('Normal', 'Browse', 'Review')),
    activity_id text not null,
    secret_hash text,
    fetch_hash text,
    fetched boolean not null default false,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    last_seen_at timestamptz,
    initialized boolean not null default false,
    completed boolean not null default false,
    outcome text check (outcome in ('passed', 'failed')),
    score_scaled double precision,
    ended_at timestamptz,
    ended_by text check (ended_by in ('terminated', 'abandoned')),
    duration_seconds integer,
    runtime jsonb
  )`,
  `create index learning_sessions_registration_idx on learning_sessions (organization_id, registration_id, created_at desc, id desc)`,
  // The abandon sweep reads only the sessions still open, soonest expiry first.
  `create index learning_sessions_open_idx on learning_sessions (expires_at) where ended_at is null`,
  `create table registration_aus (
    registration_id uuid not null references registrations(id) on delete cascade,
    au_index integer not null,
    completed boolean not null default false,
    passed boolean not null default false,
    failed boolean not null default false,
    waived text,
    satisfied boolean not null default false,
    primary key (registration_id, au_index)
  )`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists registration_aus`.execute(db)
  await sql`drop table if exists learning_sessions`.execute(db)
  await sql`alter table registrations drop column if exists package_id`.execute(db)
}
