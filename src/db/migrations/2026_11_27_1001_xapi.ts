import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code.
//
// The Learning Record Store (DECISIONS §13.1): one per organization. Statements are kept whole as jsonb
// with the columns the query API filters on beside them. Append-only like the events table: a trigger
// refuses DELETE and any UPDATE except the one voiding sets (voided false → true, nothing else).
const statements = [
  `create table xapi_credentials (
    id uuid primary key,
    organization_id uuid not null references organizations(id),
    name text not null,
    key text not null unique,
    secret_hash text not null,
    scopes text[] not null,
    created_by uuid,
    created_at timestamptz not null default now()
  )`,
  'create index xapi_credentials_org_idx on xapi_credentials (organization_id, created_at desc, id desc)',
  `create table xapi_statements (
    organization_id uuid not null references organizations(id),
    id uuid not null,
    seq bigint generated always as identity,
    stored timestamptz not null,
    credential_id uuid,
    actor_key text,
    object_agent_key text,
    verb_id text not null,
    activity_id text,
    statement_ref uuid,
    registration uuid,
    related_agents text[] not null,
    related_activities text[] not null,
    voided boolean not null default false,
    statement jsonb not null,
    primary key (organization_id, id)
  )`,
  // Every query is newest (or oldest) first by stored time within one organization, seq breaking ties.
  'create index xapi_statements_stored_idx on xapi_statements (organization_id, stored desc, seq desc)',
  'create index xapi_statements_registration_idx on xapi_statements (organization_id, registration, stored desc, seq desc) where registration is not null',
  'create index xapi_statements_actor_idx on xapi_statements (organization_id, actor_key, stored desc, seq desc)',
  'create index xapi_statements_object_agent_idx on xapi_statements (organization_id, object_agent_key, stored desc, seq desc) where object_agent_key is not null',
  'create index xapi_statements_verb_idx on xapi_statements (organization_id, verb_id, stored desc, seq desc)',
  'create index xapi_statements_activity_idx on xapi_statements (organization_id, activity_id, stored desc, seq desc) where activity_id is not null',
  'create index xapi_statements_ref_idx on xapi_statements (organization_id, statement_ref) where statement_ref is not null',
  'create index xapi_statements_credential_idx on xapi_statements (organization_id, credential_id, stored desc, seq desc)',
  'create index xapi_statements_related_agents_idx on xapi_statements using gin (related_agents)',
  'create index xapi_statements_related_activities_idx on xapi_statements using gin (related_activities)',
  `create function seaworthy_xapi_statements_append_only() returns trigger language plpgsql as $$
   begin
     if tg_op = 'UPDATE' and new.voided and not old.voided
        and (new.organization_id, new.id, new.stored, new.statement) = (old.organization_id, old.id, old.stored, old.statement) then
       return new;
     end if;
     raise exception 'xAPI statements are append-only' using errcode = 'insufficient_privilege';
   end $$`,
  `create trigger xapi_statements_append_only before update or delete on xapi_statements
     for each row execute function seaworthy_xapi_statements_append_only()`,
  `create function seaworthy_xapi_statements_no_truncate() returns trigger language plpgsql as $$
   begin
     raise exception 'xAPI statements are append-only' using errcode = 'insufficient_privilege';
   end $$`,
  `create trigger xapi_statements_no_truncate before truncate on xapi_statements
     for each statement execute function seaworthy_xapi_statements_no_truncate()`,
  // Attachments by their SHA-256, shared by every statement of the organization that names them.
  `create table xapi_attachments (
    organization_id uuid not null references organizations(id),
    sha2 text not null,
    content_type text not null,
    content bytea not null,
    primary key (organization_id, sha2)
  )`,
  // The canonical definition of each activity: the latest one a statement carried.
  `create table xapi_activities (
    organization_id uuid not null references organizations(id),
    id text not null,
    definition jsonb,
    primary key (organization_id, id)
  )`,
  // State, activity profile and agent profile documents. Absent parts of the key are '' (never null) so
  // the primary key covers them; the ETag is computed once, when the document is written.
  `create table xapi_documents (
    organization_id uuid not null references organizations(id),
    kind text not null check (kind in ('state', 'activity_profile', 'agent_profile')),
    activity_id text not null,
    agent_key text not null,
    registration text not null,
    document_id text not null,
    content_type text not null,
    content bytea not null,
    etag text not null,
    updated timestamptz not null,
    primary key (organization_id, kind, activity_id, agent_key, registration, document_id)
  )`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['xapi_documents', 'xapi_activities', 'xapi_attachments', 'xapi_statements', 'xapi_credentials']) {
    await sql.raw(`drop table if exists ${table}`).execute(db)
  }
  await sql.raw('drop function if exists seaworthy_xapi_statements_append_only()').execute(db)
  await sql.raw('drop function if exists seaworthy_xapi_statements_no_truncate()').execute(db)
}
