import { type KyselyPlugin, sql } from 'kysely'
import { expect } from 'vitest'
import { type App, buildApp } from '../src/app.js'
import type { Database, Db } from '../src/db/database.js'
import { testConfig, testDatabase } from './app.js'
import { createOrg, type TestOrg } from './factories.js'

// What a request costs the database in round trips: the statements it executes (counted as their
// results arrive, so statements compiled once count on every run), and the transactions it opens
// (each adds a BEGIN and a COMMIT). Callers are cached after their first request.
export interface StatementCounter {
  app: App
  db: Db
  org: TestOrg
  /** A second organization, for the refusals: its records are out of reach. */
  other: TestOrg
  /** Sends one request, expects `status`, and tells what it cost. */
  cost(send: () => Promise<{ status: number }>, status: number): Promise<{ statements: number; transactions: number }>
  /** The statements executed and transactions opened since the last `cost` or `reset`. */
  readonly statements: number
  readonly transactions: number
  reset(): void
  /** The events of one target, oldest first. */
  eventsOf(targetId: string): Promise<{ type: string; data: unknown }[]>
}

/** An app whose Kysely counts statements and transactions, with an organization whose callers are cached. */
export async function statementCounter(): Promise<StatementCounter> {
  let statements = 0
  let transactions = 0
  const counter: KyselyPlugin = {
    transformQuery: ({ node }) => node,
    transformResult: async ({ result }) => {
      statements++
      return result
    },
  }
  const counted = (db: Db): Db => {
    const withCounter = db.withPlugin(counter)
    return new Proxy(withCounter, {
      get(target, property) {
        const value = Reflect.get(target, property, target)
        if (property === 'transaction') {
          return () => {
            transactions++
            return target.transaction()
          }
        }
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  }
  const database = await testDatabase()
  const db = database.db
  // Announcements taken as received from the start, so the caller cache works at once on both
  // engines (on PostgreSQL the LISTEN connection would otherwise come up at its own pace); the tests
  // change no caller.
  const subscribe: Database['subscribe'] = async (_channel, _onMessage, live) => {
    live(true)
    return async () => {}
  }
  const app = await buildApp({ config: testConfig(), database: { ...database, db: counted(database.db), subscribe }, logger: false })
  await app.ready()
  const [org, other] = await Promise.all([createOrg(app, db), createOrg(app, db)])
  // Every caller's first request looks the caller up; later ones find it cached.
  await Promise.all([org.admin, org.crew, other.admin, other.crew].map((user) => user.api.get('/api/v1/users/me')))
  return {
    app,
    db,
    org,
    other,
    async cost(send, status) {
      statements = 0
      transactions = 0
      const res = await send()
      expect(res.status).toBe(status)
      return { statements, transactions }
    },
    get statements() {
      return statements
    },
    get transactions() {
      return transactions
    },
    reset() {
      statements = 0
      transactions = 0
    },
    eventsOf: (targetId) =>
      db.selectFrom('events').select(['type', 'data']).where('target_id', '=', targetId).orderBy('occurred_at').orderBy('id').execute(),
  }
}

/**
 * Waits (however slow the machine; the test's timeout ends a wait that never comes) until `count`
 * sessions queue for the row lock that the open transaction `holder` took: the first waits for the
 * holder's transaction, the others for the row (`column` = `id` of `table`). Other sessions' lock waits do not count.
 * PostgreSQL only.
 */
export async function rowLockQueued(holder: Db, db: Db, row: { table: string; column: string; id: string }, count: number): Promise<void> {
  const { table, column, id } = row
  const { rows } = await sql<{ xid: string; page: number; tuple: number }>`
    select pg_current_xact_id()::xid::text as xid, (ctid::text::point)[0]::int as page, (ctid::text::point)[1]::int as tuple
    from ${sql.table(table)} where ${sql.ref(column)} = ${id}`.execute(holder)
  const { xid, page, tuple } = rows[0]
  const waiters = sql<{ n: number }>`select count(*)::int as n from pg_locks
    where not granted and ((locktype = 'transactionid' and transactionid::text = ${xid})
      or (locktype = 'tuple' and database = (select oid from pg_database where datname = current_database())
        and relation = ${table}::regclass and page = ${page} and tuple = ${tuple}))`
  await expect.poll(async () => (await waiters.execute(db)).rows[0].n, { timeout: 60_000 }).toBeGreaterThanOrEqual(count)
}
