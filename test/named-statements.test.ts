import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { fromPostgres } from '../src/db/database.js'
import { nameStatements, SAME_PLAN_FOR_ANY_PATTERN } from '../src/db/named-statements.js'

// PostgreSQL only: the embedded engine has no connection pool and keeps its own statements.
const url = process.env.TEST_DATABASE_URL

describe.skipIf(!url)('named statements on a pooled connection', () => {
  const pool = new pg.Pool({ connectionString: url, max: 1 })
  pool.on('connect', (client) => nameStatements(client, 2))
  afterAll(() => pool.end())

  const prepared = async (client: pg.PoolClient) =>
    (await client.query('select statement from pg_prepared_statements order by prepare_time')).rows.map((r) => r.statement)

  it('prepares each parameterized text once, keeps at most `capacity`, and deallocates the least recently used', async () => {
    const client = await pool.connect()
    try {
      const texts = ['select $1::int + 1 as n', 'select $1::int + 2 as n', 'select $1::int + 3 as n']
      expect((await client.query(texts[0], [1])).rows).toEqual([{ n: 2 }])
      expect((await client.query(texts[0], [5])).rows).toEqual([{ n: 6 }])
      await client.query(texts[1], [1])
      expect(await prepared(client)).toEqual([texts[0], texts[1]])
      // texts[0] was used before texts[1]: the third text evicts it.
      await client.query(texts[2], [1])
      expect(await prepared(client)).toEqual([texts[1], texts[2]])
      // An evicted text is prepared again under a new name and still answers.
      expect((await client.query(texts[0], [10])).rows).toEqual([{ n: 11 }])
      expect(await prepared(client)).toEqual([texts[2], texts[0]])
    } finally {
      client.release()
    }
  })

  it('leaves statements without parameters, and pattern searches, unnamed', async () => {
    const client = await pool.connect()
    try {
      const before = await prepared(client)
      await client.query('select 42 as n', [])
      expect((await client.query(`select 'Ballast' ilike $1 as hit`, ['%ball%'])).rows).toEqual([{ hit: true }])
      expect(await prepared(client)).toEqual(before)
    } finally {
      client.release()
    }
  })

  it('names a pattern search that says its plan is the same for any pattern', async () => {
    const client = await pool.connect()
    try {
      const text = `select 'Ballast' like $1 as hit ${SAME_PLAN_FOR_ANY_PATTERN}`
      expect((await client.query(text, ['%Ball%'])).rows).toEqual([{ hit: true }])
      expect(await prepared(client)).toContain(text)
    } finally {
      client.release()
    }
  })
})

describe.skipIf(!url)("the service's connections", () => {
  it('have JIT off and named statements from their first query on', async () => {
    const database = fromPostgres(url!, 1)
    try {
      const first = await sql<{ jit: string; named: number }>`
        select current_setting('jit') as jit, (select count(*)::int from pg_prepared_statements) as named
        where ${1}::int = 1`.execute(database.db)
      expect(first.rows).toEqual([{ jit: 'off', named: 1 }])
    } finally {
      await database.close()
    }
  })
})
