import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code.
const statements = [
  // One row per organization with single sign-on; no row means it is off.
  `create table sso_settings (
    organization_id uuid primary key references organizations(id),
    issuer text not null,
    client_id text not null,
    audience text,
    role_claim text,
    role_map jsonb not null default '{}'::jsonb,
    default_role text not null check (default_role in ('admin','office_admin','office_employee','crew')),
    enforce boolean not null default false,
    redirect_uris text[] not null default '{}',
    client_secret text,
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp()),
    updated_at timestamptz not null default date_trunc('milliseconds', clock_timestamp())
  )`,
  // The token exchange finds the organizations of an ID token by its issuer.
  `create index sso_settings_issuer_idx on sso_settings (issuer)`,
  // A browser sign-in in progress: short-lived, consumed by the callback.
  `create table sso_login_states (
    state text primary key,
    organization_id uuid not null references organizations(id),
    nonce text not null,
    code_verifier text not null,
    redirect_uri text not null,
    expires_at timestamptz not null
  )`,
  `create index sso_login_states_expires_idx on sso_login_states (expires_at)`,
  // The admin made by "org create" keeps password login when single sign-on is enforced.
  `alter table users add column break_glass boolean not null default false`,
  // Organizations created before this column: their first admin is the one "org create" made.
  `update users set break_glass = true where id in (
     select distinct on (organization_id) id from users where role = 'admin'
      order by organization_id, created_at, id)`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table users drop column if exists break_glass`.execute(db)
  await sql`drop table if exists sso_login_states`.execute(db)
  await sql`drop table if exists sso_settings`.execute(db)
}
