import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. An upload sent resumably (tus, DECISIONS §16) waits for
// its bytes until `resumable_until`; past it, the sweep drops what arrived and the row. Null for the
// presigned-POST flow of §5.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table uploads add column resumable_until timestamptz`.execute(db)
  await sql`create index uploads_resumable_until_idx on uploads (organization_id, resumable_until, id)
    where status = 'pending' and resumable_until is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists uploads_resumable_until_idx`.execute(db)
  await sql`alter table uploads drop column if exists resumable_until`.execute(db)
}
