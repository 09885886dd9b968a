import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { type Database, fromPostgres, migrateToLatest, openDatabase } from '../src/db/database.js'
import { createTokens, hashPassword } from '../src/lib/auth.js'
import { insertUser } from '../src/modules/accounts/users/users.queries.js'
import { type LoadRequest, type Sample, SteadyLoad } from './load.js'
import { PrivatePostgres } from '../test/private-postgres.js'

// The database goes away twice under a steady mixed load, first shut down (`pg_ctl stop -m fast`),
// then crashed (`-m immediate`), and comes back each time. The service keeps running throughout.

const SECRET = 'outage-secret-outage-secret-outage-secret-0123'
/** The bound on every answer while the database is away. */
const OUTAGE_ANSWER_MS = 1000
const ANSWERS_PER_PHASE = 150
/** Each outage lasts at least this long, so requests keep meeting it after the pool has noticed. */
const OUTAGE_MIN_MS = 2000

let pg: PrivatePostgres
let setup: Database
let app: App
let baseUrl: string
let token: string
let crewId: string

function imo(n: number): string {
  const base = String(n % 1_000_000).padStart(6, '0')
  return base + ([...base].reduce((sum, digit, i) => sum + Number(digit) * (7 - i), 0) % 10)
}

/** Reads and writes in turn: two creates (whose rows are checked afterwards) and three reads. */
function mixed(n: number): LoadRequest {
  switch (n % 5) {
    case 0:
      return {
        name: 'create ship',
        method: 'POST',
        path: '/api/v1/shared/ships',
        body: { name: `Ship ${n}`, imoNumber: imo(n) },
        creates: 'ships',
      }
    case 1:
      return { name: 'list ships', method: 'GET', path: '/api/v1/shared/ships?limit=5' }
    case 2:
      return {
        name: 'create next of kin',
        method: 'POST',
        path: `/api/v1/crew/users/${crewId}/next-of-kin`,
        body: { relationship: 'spouse', fullName: `Kin ${n}` },
        creates: 'next_of_kin',
      }
    case 3:
      return { name: 'me', method: 'GET', path: '/api/v1/users/me' }
    default:
      return { name: 'list next of kin', method: 'GET', path: `/api/v1/crew/users/${crewId}/next-of-kin` }
  }
}

async function readyz(): Promise<number> {
  return (await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(5000) })).status
}

async function waitReady(): Promise<void> {
  const deadline = Date.now() + 30_000
  while ((await readyz()) !== 200) {
    if (Date.now() > deadline) throw new Error('/readyz did not answer 200 within 30 s of the database starting')
    await sleep(50)
  }
}

beforeAll(async () => {
  pg = await PrivatePostgres.create()
  await pg.start()
  setup = fromPostgres(pg.url, 1)
  await migrateToLatest(setup.db)
  const orgId = uuidv7()
  await setup.db
    .insertInto('organizations')
    .values({ id: orgId, name: 'Outage', domain: null, products: ['learn', 'crew'] })
    .execute()
  const passwordHash = await hashPassword('outage password')
  const user = (role: 'admin' | 'crew') =>
    insertUser(setup.db, orgId, { email: `${role}@outage.example.test`, firstName: 'Out', lastName: role, role, passwordHash })
  const admin = await user('admin')
  crewId = (await user('crew')).id
  token = (await createTokens(SECRET, 3600).issue({ sub: admin.id, org: orgId, role: 'admin', products: ['learn', 'crew'], sid: uuidv7() }))
    .token

  // The service as server.ts builds it, with a short connection timeout so an outage answers quickly.
  const config = loadConfig({
    DATABASE_URL: pg.url,
    SEAWORTHY_JWT_SECRET: SECRET,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'seaworthy-outage-data-')),
    LOG_LEVEL: 'silent',
    DB_CONNECT_TIMEOUT_MS: '500',
  })
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    connectTimeoutMs: config.dbConnectTimeoutMs,
  })
  app = await buildApp({ config, database, logger: false })
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 })
})

afterAll(async () => {
  await app?.close()
  await setup?.close()
  await pg?.destroy()
})

interface Outage {
  mode: 'fast' | 'immediate'
  /** pg_ctl stop was called. */
  stopping: number
  /** pg_ctl stop returned: the database is gone. */
  down: number
  readyzDuring: number[]
  /** pg_ctl start was called. */
  starting: number
  /** /readyz answered 200 again. */
  ready: number
}

const within = (s: Sample, from: number, to: number) => s.start >= from && s.end <= to
const describeSample = (s: Sample) => `${s.name}: ${s.error ?? s.status} in ${s.end - s.start} ms`

describe('a database outage under load', () => {
  it('answers 503 within 1 s while the database is down, recovers without a restart and keeps every acknowledged write', async () => {
    const load = new SteadyLoad({ baseUrl, token, next: mixed, workers: 6, pauseMs: 20, maxRequests: 20_000, maxMs: 180_000 })
    const outages: Outage[] = []
    try {
      await load.answers(ANSWERS_PER_PHASE)
      for (const mode of ['fast', 'immediate'] as const) {
        const stopping = Date.now()
        await pg.stop(mode)
        const down = Date.now()
        await load.answers(ANSWERS_PER_PHASE)
        await sleep(Math.max(0, down + OUTAGE_MIN_MS - Date.now()))
        const readyzDuring = [await readyz(), await readyz()]
        const starting = Date.now()
        await pg.start()
        await waitReady()
        outages.push({ mode, stopping, down, readyzDuring, starting, ready: Date.now() })
        await load.answers(ANSWERS_PER_PHASE)
      }
    } finally {
      await load.stop()
    }

    const { samples } = load
    const [first] = outages
    // Nothing but 2xx or 503, and always an answer.
    expect(samples.filter((s) => s.status !== 503 && (s.status < 200 || s.status > 299)).map(describeSample)).toEqual([])
    // Before the first outage, all is well.
    expect(samples.filter((s) => s.end < first.stopping && s.status !== 200 && s.status !== 201).map(describeSample)).toEqual([])
    for (const outage of outages) {
      const during = samples.filter((s) => within(s, outage.down, outage.starting))
      expect(during.length, `requests answered while the database was down (${outage.mode})`).toBeGreaterThanOrEqual(ANSWERS_PER_PHASE)
      expect(during.filter((s) => s.status !== 503).map(describeSample), `while down (${outage.mode})`).toEqual([])
      const affected = samples.filter((s) => s.start >= outage.stopping && s.start <= outage.ready)
      expect(affected.filter((s) => s.end - s.start > OUTAGE_ANSWER_MS).map(describeSample), `slow answers (${outage.mode})`).toEqual([])
      expect(outage.readyzDuring, `/readyz while down (${outage.mode})`).toEqual([503, 503])
      // Recovered: everything sent once /readyz is 200 again succeeds, until the next outage.
      const next = outages[outages.indexOf(outage) + 1]?.stopping ?? Number.POSITIVE_INFINITY
      const after = samples.filter((s) => s.start > outage.ready && s.end < next)
      expect(after.length, `requests after recovery (${outage.mode})`).toBeGreaterThanOrEqual(ANSWERS_PER_PHASE / 2)
      expect(after.filter((s) => s.status >= 300).map(describeSample), `after recovery (${outage.mode})`).toEqual([])
    }

    // Every write that was acknowledged is there, including those acknowledged just before a crash.
    for (const table of ['ships', 'next_of_kin'] as const) {
      const acknowledged = samples.flatMap((s) => (s.created?.table === table ? [s.created.id] : []))
      expect(acknowledged.length).toBeGreaterThan(ANSWERS_PER_PHASE / 5)
      const rows = await setup.db.selectFrom(table).select('id').where('id', 'in', acknowledged).execute()
      expect(rows.length, `acknowledged ${table} rows present`).toBe(acknowledged.length)
    }
  })
})
