import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. DECISIONS §16: a session launched for offline play
// accepts its queued records until its expiry plus 7 days (null: until its expiry, as every session
// before); a SCORM session keeps the sequence
// number of the last commit it applied (a replayed commit changes nothing); a package version lists
// its files with their sizes and SHA-256, for the console to download and check.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table learning_sessions add column accepts_until timestamptz`.execute(db)
  await sql`alter table learning_sessions add column commit_seq integer`.execute(db)
  // The abandon sweep finds open sessions by the time they stop accepting records.
  await sql`drop index learning_sessions_open_idx`.execute(db)
  await sql`create index learning_sessions_open_idx on learning_sessions ((coalesce(accepts_until, expires_at))) where ended_at is null`.execute(
    db,
  )
  await sql`create table course_package_files (
    package_id uuid not null references course_packages(id) on delete cascade,
    path text not null,
    bytes bigint not null,
    sha256 text not null,
    primary key (package_id, path)
  )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table course_package_files`.execute(db)
  await sql`alter table learning_sessions drop column commit_seq`.execute(db)
  await sql`drop index learning_sessions_open_idx`.execute(db)
  await sql`create index learning_sessions_open_idx on learning_sessions (expires_at) where ended_at is null`.execute(db)
  await sql`alter table learning_sessions drop column accepts_until`.execute(db)
}
