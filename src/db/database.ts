import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import pg from 'pg'
import { migrations } from './migrations/index.js'
import { nameStatements } from './named-statements.js'
import type { DB } from './schema.js'

export type Db = Kysely<DB>

export interface Database {
  readonly db: Db
  readonly engine: 'pglite' | 'postgres'
  ping(): Promise<boolean>
  /**
   * Follows a LISTEN channel. `live` says whether announcements are being received right now
   * (false until listening, and again whenever the connection is lost). Returns the unsubscribe.
   */
  /** The connections right now, for the metrics: in use by a query, idle, and queries waiting for one. */
  connections(): ConnectionStats
  subscribe(channel: string, onMessage: (payload: string) => void, live: (isLive: boolean) => void): Promise<() => Promise<void>>
  /** Raw SQL for libraries that bring their own statements (the job queue); several statements when there are no values. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>
  close(): Promise<void>
}

export interface ConnectionStats {
  inUse: number
  idle: number
  waiting: number
}

const INT8 = 20
const DATE = 1082
// Dates stay 'YYYY-MM-DD' text (no time zone shifts); counts come back as numbers.
const parsers = { [INT8]: (v: string) => Number(v), [DATE]: (v: string) => v }
pg.types.setTypeParser(INT8, parsers[INT8])
pg.types.setTypeParser(DATE, parsers[DATE])

export class DataDirInUse extends Error {}

/** PGlite has no lock of its own; a second process on the same directory would corrupt it. */
function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'seaworthy.lock')
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(file, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => rmSync(file, { force: true })
    } catch (error: any) {
      if (error.code !== 'EEXIST') throw error
      const pid = Number(readFileSync(file, 'utf8'))
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new DataDirInUse(
          `The embedded database in ${dir} is in use by another Seaworthy process (pid ${pid}). Stop it first, or set DATABASE_URL to use PostgreSQL.`,
        )
      }
      rmSync(file, { force: true })
    }
  }
  throw new DataDirInUse(`Could not lock the embedded database in ${dir}`)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error: any) {
    return error.code === 'EPERM'
  }
}

export function pgliteOptions() {
  return { extensions: { pg_trgm }, parsers }
}

export function fromPglite(pglite: PGlite, onClose: () => void = () => {}): Database {
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) })
  return {
    db,
    engine: 'pglite',
    ping: async () => !pglite.closed,
    // One in-process connection that Kysely's driver takes in turn: there is no pool to report.
    connections: () => ({ inUse: 0, idle: 1, waiting: 0 }),
    async subscribe(channel, onMessage, live) {
      const unlisten = await pglite.listen(channel, onMessage)
      live(true)
      return async () => {
        live(false)
        if (!pglite.closed) await unlisten()
      }
    },
    async executeSql(text, values = []) {
      if (values.length) return pglite.query(text, values as any[])
      const results = await pglite.exec(text)
      return { rows: results.at(-1)?.rows ?? [] }
    },
    close: async () => {
      await db.destroy()
      onClose()
    },
  }
}

/**
 * `connectTimeoutMs`: how long a query waits for a connection, new or free in the pool, before it
 * fails as the database being unavailable (503); 0 waits as long as it takes.
 */
export function fromPostgres(url: string, poolSize = 10, connectTimeoutMs = 3000): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: connectTimeoutMs,
    // Awaited before the pool hands the connection out, so its first query never queues behind this
    // one (pg deprecates queueing on a busy client). JIT compiling costs tens of milliseconds per statement
    // and ours run in a few: the readiness statements cross jit_above_cost only because the planner
    // overestimates them (docs/performance.md).
    onConnect: async (client) => {
      client.on('error', () => {})
      await client.query('set jit = off').catch(() => {})
      nameStatements(client)
    },
  })
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {})
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
  return {
    db,
    engine: 'postgres',
    ping: async () => {
      try {
        await sql`select 1`.execute(db)
        return true
      } catch {
        return false
      }
    },
    connections: () => ({ inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    subscribe: async (channel, onMessage, live) => listenWithReconnect(url, channel, onMessage, live),
    executeSql: (text, values) => pool.query(text, values),
    close: () => db.destroy(),
  }
}

const RECONNECT_MS = 1000

/** A dedicated connection for LISTEN, reconnected whenever it drops. */
function listenWithReconnect(url: string, channel: string, onMessage: (payload: string) => void, live: (isLive: boolean) => void) {
  let client: pg.Client | undefined
  let stopped = false
  let retry: NodeJS.Timeout | undefined
  const lost = () => {
    live(false)
    client = undefined
    if (!stopped && !retry) retry = setTimeout(connect, RECONNECT_MS).unref()
  }
  const connect = async () => {
    retry = undefined
    const candidate = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
    candidate.on('notification', (message) => message.channel === channel && onMessage(message.payload ?? ''))
    candidate.on('error', () => {})
    candidate.on('end', () => client === candidate && lost())
    try {
      await candidate.connect()
      await candidate.query(`listen ${channel}`)
      if (stopped) return void candidate.end()
      client = candidate
      live(true)
    } catch {
      candidate.end().catch(() => {})
      lost()
    }
  }
  void connect()
  return Promise.resolve(async () => {
    stopped = true
    clearTimeout(retry)
    live(false)
    await client?.end().catch(() => {})
  })
}

export async function openDatabase(options: {
  databaseUrl?: string
  dataDir: string
  poolSize?: number
  connectTimeoutMs?: number
}): Promise<Database> {
  if (options.databaseUrl) return fromPostgres(options.databaseUrl, options.poolSize, options.connectTimeoutMs)
  const release = lockDataDir(options.dataDir)
  try {
    const pglite = await PGlite.create(join(options.dataDir, 'pgdata'), pgliteOptions())
    return fromPglite(pglite, release)
  } catch (error) {
    release()
    throw error
  }
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Migrations from parallel branches may land in any order.
    allowUnorderedMigrations: true,
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
