import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. What a document or certificate create ran for nothing
// (issue 42): the statement-level sea-service trigger on every review insert, which captured each
// statement's new rows and ran its function to find no verified experience among them, is a row trigger
// whose WHEN (evaluated by the executor, no function call) passes only a verified experience review; and
// the owner keys of documents, certificates and reviews go the way of perf-4's (docs/decisions/
// performance.md): users are never deleted, a record's create reads its owner in the organization in the
// same statement, and a review's user_id is always copied from its record's.
const DROPPED_KEYS: [table: string, column: string][] = [
  ['identity_documents', 'user_id'],
  ['certificates', 'user_id'],
  ['verifications', 'user_id'],
]

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop trigger verifications_sea_service_insert on verifications`.execute(db)
  await sql`drop function sea_service_reviews_inserted()`.execute(db)
  await sql`create or replace function sea_service_review_changed() returns trigger language plpgsql as $function$
  begin
    if tg_op = 'DELETE' then
      perform sea_service_refresh(array[old.user_id]);
    elsif tg_op = 'INSERT' then
      perform sea_service_refresh(array[new.user_id]);
    else
      perform sea_service_refresh(array[old.user_id, new.user_id]);
    end if;
    return null;
  end $function$`.execute(db)
  await sql`create trigger verifications_sea_service_insert after insert on verifications for each row
    when (new.target_type = 'experience' and new.status = 'verified') execute function sea_service_review_changed()`.execute(db)
  for (const [table, column] of DROPPED_KEYS) {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.id(`${table}_${column}_fkey`)}`.execute(db)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, column] of DROPPED_KEYS) {
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_${column}_fkey`)}
      foreign key (${sql.id(column)}) references users (id)`.execute(db)
  }
  await sql`drop trigger verifications_sea_service_insert on verifications`.execute(db)
  await sql`create or replace function sea_service_review_changed() returns trigger language plpgsql as $function$
  begin
    if tg_op = 'DELETE' then
      perform sea_service_refresh(array[old.user_id]);
    else
      perform sea_service_refresh(array[old.user_id, new.user_id]);
    end if;
    return null;
  end $function$`.execute(db)
  await sql`create function sea_service_reviews_inserted() returns trigger language plpgsql as $function$
  declare
    people uuid[];
  begin
    select array_agg(distinct n.user_id) into people from new_rows n where n.target_type = 'experience' and n.status = 'verified';
    if people is not null then
      perform sea_service_refresh(people);
    end if;
    return null;
  end $function$`.execute(db)
  await sql`create trigger verifications_sea_service_insert after insert on verifications
    referencing new table as new_rows for each statement execute function sea_service_reviews_inserted()`.execute(db)
}
