import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. The periodic sweeps run per organization in bounded
// batches, from where each organization's last run left off, and one instance at a time: a lease per
// job (taken and renewed by one short upsert, expiring when its holder dies) and a mark per
// organization and job (when and on which day it was last swept through). The contract sweep finds
// the contracts ended since its last run through their end dates (the index below).

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table job_leases (
    job text primary key,
    holder uuid not null,
    expires_at timestamptz not null
  )`.execute(db)
  await sql`create table sweep_marks (
    organization_id uuid not null references organizations(id) on delete cascade,
    job text not null,
    swept_at timestamptz not null,
    swept_day date not null,
    primary key (organization_id, job)
  )`.execute(db)
  await sql`create index assignments_ended_idx on assignments (organization_id, end_date, id) where end_date is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists assignments_ended_idx`.execute(db)
  await sql`drop table if exists sweep_marks`.execute(db)
  await sql`drop table if exists job_leases`.execute(db)
}
