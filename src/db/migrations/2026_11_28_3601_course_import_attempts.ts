import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. DECISIONS §13.7: an import that fails for a reason outside
// its package (database, storage) runs again at most 3 times; the runs that failed so are counted here.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table course_imports add column attempts integer not null default 0`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table course_imports drop column if exists attempts`.execute(db)
}
