import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. Accounts (DECISIONS §15): one-time links (invitations,
// password resets) and refresh tokens, both stored only as SHA-256 hashes of what the user holds.
// A suspension revokes both, by trigger, however it is done. And one upload backs at most one live
// crew record (§5 item 6): `upload_records` holds each upload's record, kept by triggers on the
// record tables, so two concurrent writes naming one upload meet on its primary key.
const statements = [
  `create table account_links (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    user_id uuid not null references users(id),
    purpose text not null check (purpose in ('invitation', 'password_reset')),
    token_hash text not null unique,
    expires_at timestamptz not null,
    used_at timestamptz,
    revoked_at timestamptz,
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp())
  )`,
  'create index account_links_user_idx on account_links (user_id, purpose) where used_at is null and revoked_at is null',
  `create table refresh_tokens (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    user_id uuid not null references users(id),
    family_id uuid not null,
    token_hash text not null unique,
    expires_at timestamptz not null,
    spent_at timestamptz,
    revoked_at timestamptz,
    created_at timestamptz not null default date_trunc('milliseconds', clock_timestamp())
  )`,
  'create index refresh_tokens_family_idx on refresh_tokens (family_id)',
  'create index refresh_tokens_user_idx on refresh_tokens (user_id) where spent_at is null and revoked_at is null',
  `create function seaworthy_revoke_on_suspension() returns trigger language plpgsql as $$
   begin
     update refresh_tokens set revoked_at = clock_timestamp()
      where user_id = new.id and spent_at is null and revoked_at is null;
     update account_links set revoked_at = clock_timestamp()
      where user_id = new.id and used_at is null and revoked_at is null;
     return null;
   end $$`,
  `create trigger users_suspended_revoke after update of state on users
     for each row when (new.state = 'suspended' and old.state is distinct from 'suspended')
     execute function seaworthy_revoke_on_suspension()`,
  // A password reset moves tokens_valid_after too: every instance must drop its cached copy.
  'drop trigger users_actor_changed on users',
  `create trigger users_actor_changed after update of state, role, organization_id, tokens_valid_after or delete on users
     for each row execute function seaworthy_notify_user_changed()`,
  `create table upload_records (
    upload_id uuid primary key references uploads(id),
    record_id uuid not null
  )`,
  // Records that shared an upload before this rule keep it; the oldest holds the claim.
  `insert into upload_records (upload_id, record_id)
   select distinct on (upload_id) upload_id, id
     from (select upload_id, id, created_at from identity_documents where upload_id is not null
           union all
           select upload_id, id, created_at from certificates where upload_id is not null) records
    order by upload_id, created_at, id`,
  `create function seaworthy_claim_upload() returns trigger language plpgsql as $$
   begin
     if tg_op in ('UPDATE', 'DELETE') and old.upload_id is not null then
       delete from upload_records where upload_id = old.upload_id and record_id = old.id;
     end if;
     if tg_op in ('INSERT', 'UPDATE') and new.upload_id is not null then
       insert into upload_records (upload_id, record_id) values (new.upload_id, new.id);
     end if;
     return null;
   end $$`,
  ...['identity_documents', 'certificates'].flatMap((table) => [
    `create trigger ${table}_upload_created after insert on ${table}
       for each row when (new.upload_id is not null) execute function seaworthy_claim_upload()`,
    `create trigger ${table}_upload_changed after update of upload_id on ${table}
       for each row when (old.upload_id is distinct from new.upload_id) execute function seaworthy_claim_upload()`,
    `create trigger ${table}_upload_deleted after delete on ${table}
       for each row when (old.upload_id is not null) execute function seaworthy_claim_upload()`,
  ]),
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['identity_documents', 'certificates']) {
    for (const trigger of ['created', 'changed', 'deleted'])
      await sql.raw(`drop trigger if exists ${table}_upload_${trigger} on ${table}`).execute(db)
  }
  await sql.raw('drop function if exists seaworthy_claim_upload()').execute(db)
  await sql.raw('drop table if exists upload_records').execute(db)
  await sql.raw('drop trigger if exists users_actor_changed on users').execute(db)
  await sql
    .raw(`create trigger users_actor_changed after update of state, role, organization_id or delete on users
     for each row execute function seaworthy_notify_user_changed()`)
    .execute(db)
  await sql.raw('drop trigger if exists users_suspended_revoke on users').execute(db)
  await sql.raw('drop function if exists seaworthy_revoke_on_suspension()').execute(db)
  await sql.raw('drop table if exists refresh_tokens').execute(db)
  await sql.raw('drop table if exists account_links').execute(db)
}
