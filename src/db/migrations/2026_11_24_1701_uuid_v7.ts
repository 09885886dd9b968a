import { type Kysely, sql } from 'kysely'

// Frozen in time: imports no application code. A time-ordered UUID (RFC 9562 version 7) made in the
// database, for rows a set-based statement creates in numbers it cannot know beforehand (the expiry
// sweep's events): a version 4 UUID whose first 48 bits become the Unix time in milliseconds and
// whose version bits become 0111.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create function seaworthy_uuid_v7() returns uuid language sql volatile as $$
    select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
      placing substring(int8send((extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid
  $$`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists seaworthy_uuid_v7()`.execute(db)
}
