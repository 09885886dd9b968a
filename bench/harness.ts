// What `npm run bench` (bench/run.ts) and `npm run bench:profile` (bench/profile.ts) share: the seeded
// database and its fixtures, an admin token, the probe that explains a failing scenario, and the wait
// until no query of an earlier scenario still runs.
import { randomBytes, randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type pg from 'pg'
import { createTokens } from '../src/lib/auth.js'
import { type Fixtures, loadFixtures } from './fixtures.js'
import type { LoadRequest } from './load.js'
import type { Api } from './scenario.js'
import { type SeedInfo, seed } from './seed.js'

export interface Prepared {
  seeded: SeedInfo
  fixtures: Fixtures
  /** The JWT secret the served build must be started with, for `headers`' token to verify. */
  secret: string
  headers: Record<string, string>
}

/** Seeds (or reuses) the database and mints an admin token of its largest organization. */
export async function prepareBench(databaseUrl: string, scale: number, xapiStatements: number): Promise<Prepared> {
  const seeded = await seed(databaseUrl, scale, xapiStatements)
  const fixtures = await loadFixtures(databaseUrl, seeded.orgId, seeded.adminId)
  const secret = randomBytes(48).toString('base64url')
  const { token } = await createTokens(secret, 6 * 3600).issue({
    sub: seeded.adminId,
    org: seeded.orgId,
    role: 'admin',
    products: ['learn', 'crew'],
    sid: randomUUID(),
  })
  return { seeded, fixtures, secret, headers: { authorization: `Bearer ${token}` } }
}

/** A GET on the served build with the run's headers, for scenarios that read the API first. */
export const apiOf =
  (url: string, headers: Record<string, string>): Api =>
  async (path, extra) => {
    const response = await fetch(url + path, { headers: { ...headers, ...extra } })
    return { status: response.status, body: await response.json().catch(() => null) }
  }

/** Sends one of a scenario's requests as the load would (fresh `{{uuid}}`s); resolves to its response. */
export function send(url: string, headers: Record<string, string>, request: LoadRequest): Promise<Response> {
  return fetch(url + request.path, {
    method: request.method,
    headers: { ...headers, ...request.headers, ...(request.body ? { 'content-type': 'application/json' } : {}) },
    body: request.body?.replaceAll('{{uuid}}', randomUUID()),
  })
}

/** One request before the load: when it is not a 2xx, its answer explains the failures in the table. */
export async function probe(url: string, headers: Record<string, string>, request: LoadRequest): Promise<string | undefined> {
  const response = await send(url, headers, request)
  const text = await response.text()
  return response.ok ? undefined : `probe ${response.status}: ${text.slice(0, 160)}`
}

const SETTLE_MS = 120_000

/**
 * Waits until no query of the bench database is running: a scenario that timed out leaves its statements
 * running in PostgreSQL (sea-service-fleet's outlive its 10 s), and they would count in the next one's figures.
 */
export async function settle(postgres: pg.Client): Promise<void> {
  const deadline = Date.now() + SETTLE_MS
  for (;;) {
    const { rows } = await postgres.query(`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and state = 'active' and backend_type = 'client backend'`)
    if (rows[0].n === 0) return
    if (Date.now() > deadline) {
      console.log(`  (${rows[0].n} queries of earlier scenarios still running after ${SETTLE_MS / 1000} s)`)
      return
    }
    await sleep(500)
  }
}
