import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. A course search compared every row it read with
// `ilike`, which lowercases the title (and the pattern) again for each row: at 200,000 courses, two
// thirds of PostgreSQL's time per search. The lowered title is kept (`title_search`, what ilike
// compares, with the same `lower`) and a search is `title_search like lower(pattern)`; the trigram
// index serves that column (pg_trgm's trigrams are lowercase either way).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table courses add column title_search text generated always as (lower(title)) stored`.execute(db)
  await sql`create index courses_title_search_trgm_idx on courses using gin (title_search gin_trgm_ops)`.execute(db)
  await sql`drop index courses_title_trgm_idx`.execute(db)
  await sql`analyze courses`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index courses_title_trgm_idx on courses using gin (title gin_trgm_ops)`.execute(db)
  await sql`alter table courses drop column title_search`.execute(db)
}
