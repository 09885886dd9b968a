import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. The requirements matrix (DECISIONS §10): per role,
// the document and certificate types it needs, in the order the admin wrote them. `role` is stored
// trimmed; readiness matches an assignment's role to it case-insensitively, through the index.
const statements = [
  `create table requirements (
    organization_id uuid not null references organizations(id),
    position integer not null,
    role text not null,
    document_types text[] not null default '{}',
    certificate_types text[] not null default '{}',
    primary key (organization_id, position)
  )`,
  `create index requirements_role_idx on requirements (organization_id, lower(role))`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists requirements`.execute(db)
}
