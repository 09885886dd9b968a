import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. created_at and updated_at each read clock_timestamp()
// in their own default, so a new row's two stamps could differ by a few milliseconds. A new row has
// been updated exactly when it was created: one trigger makes updated_at the created_at it got.
const TABLES = [
  'users',
  'ships',
  'uploads',
  'identity_documents',
  'certificates',
  'experiences',
  'next_of_kin',
  'verifications',
  'courses',
  'curriculums',
  'assignments',
  'registrations',
  'sso_settings',
]

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create function seaworthy_created_is_updated() returns trigger language plpgsql as $$
    begin
      new.updated_at := new.created_at;
      return new;
    end $$`.execute(db)
  for (const table of TABLES) {
    await sql`create trigger ${sql.id(`${table}_created_is_updated`)} before insert on ${sql.table(table)}
      for each row execute function seaworthy_created_is_updated()`.execute(db)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await sql`drop trigger if exists ${sql.id(`${table}_created_is_updated`)} on ${sql.table(table)}`.execute(db)
  await sql`drop function if exists seaworthy_created_is_updated()`.execute(db)
}
