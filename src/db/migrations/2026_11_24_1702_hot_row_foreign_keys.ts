import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. Every insert checked its foreign keys by share-locking
// the parent row, and on the write paths the parents are the same few rows: the organization (every
// write of a tenant) and the acting admin or reviewer. Concurrent writes then pile up on one row, and
// PostgreSQL creates a MultiXact for each extra locker (docs/decisions/performance.md, perf-4).
// Organizations and users are never deleted, and these columns are only ever set from the
// authenticated caller, so the locks protect nothing: they go. The owner's user_id keys stay (each
// crew member is its own row), as do those that rules rely on (ship, course, curriculum, assignment).
const DROPPED: [table: string, column: string, parent: string][] = [
  ['identity_documents', 'organization_id', 'organizations'],
  ['identity_documents', 'uploaded_by_user_id', 'users'],
  ['certificates', 'organization_id', 'organizations'],
  ['certificates', 'uploaded_by_user_id', 'users'],
  ['experiences', 'organization_id', 'organizations'],
  ['next_of_kin', 'organization_id', 'organizations'],
  ['verifications', 'organization_id', 'organizations'],
  ['verifications', 'reviewer_user_id', 'users'],
  ['verification_events', 'organization_id', 'organizations'],
  ['verification_events', 'actor_user_id', 'users'],
  ['assignments', 'organization_id', 'organizations'],
  ['assignment_courses', 'organization_id', 'organizations'],
  ['registrations', 'organization_id', 'organizations'],
  ['attempts', 'organization_id', 'organizations'],
  ['events', 'organization_id', 'organizations'],
  ['webhook_deliveries', 'organization_id', 'organizations'],
  ['expiry_notices', 'organization_id', 'organizations'],
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, column] of DROPPED) {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.id(`${table}_${column}_fkey`)}`.execute(db)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, column, parent] of DROPPED) {
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_${column}_fkey`)}
      foreign key (${sql.id(column)}) references ${sql.table(parent)} (id)`.execute(db)
  }
}
