// `npm run bench:launch`: launching a cmi5 course and an AU's statements through its session credential
// (DECISIONS §13.4), against the same statement written with an LRS credential. The service runs in this
// process on PostgreSQL (a database of its own), the load in another (bench/load.ts); CPU per request
// is this process's and the database backends' (bench/cpu.ts). Targets: docs/performance.md, "Launch".
import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { fromPostgres, migrateToLatest } from '../src/db/database.js'
import { createTokens } from '../src/lib/auth.js'
import { insertPackage } from '../src/modules/learning/packages/packages.queries.js'
import { createOrganization } from '../src/modules/accounts/organizations/organizations.service.js'
import { measureCpu } from './cpu.js'
import type { LoadRequest, LoadSpec } from './load.js'
import { writeResults } from './report.js'
import { runLoad } from './run-load.js'

const env = process.env
const ADMIN_URL = env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
const DB_NAME = env.BENCH_LAUNCH_DB || 'seaworthy_bench_launch'
const DURATION = Number(env.BENCH_DURATION || 10)
const CONNECTIONS = Number(env.BENCH_CONNECTIONS || 32)
/** Registrations launched, and sessions the statements spread over (so they rarely wait on one session's lock). */
const SESSIONS = Number(env.BENCH_SESSIONS || 200)
const RESULTS = env.BENCH_RESULTS || 'bench/results/launch.json'
const SECRET = 'bench-secret-bench-secret-bench-secret-0123'
const CMI5 = 'https://w3id.org/xapi/cmi5/context/categories/cmi5'
const SESSION_ID = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid'

async function ensureDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: ADMIN_URL })
  await admin.connect()
  const found = await admin.query('select 1 from pg_database where datname = $1', [DB_NAME])
  if (found.rowCount === 0) await admin.query(`create database ${admin.escapeIdentifier(DB_NAME)}`)
  await admin.end()
  return Object.assign(new URL(ADMIN_URL), { pathname: `/${DB_NAME}` }).toString()
}

const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`

async function main(): Promise<void> {
  const databaseUrl = await ensureDatabase()
  const database = fromPostgres(databaseUrl, 10)
  await migrateToLatest(database.db)
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    SEAWORTHY_JWT_SECRET: SECRET,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'seaworthy-bench-')),
    LOG_LEVEL: 'error',
  })
  const app = await buildApp({ config, database })
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  const db = database.db

  // An organization, a one-AU cmi5 course and SESSIONS registrations of one crew member, written straight to the tables.
  const suffix = Date.now().toString(36)
  const { organizationId: orgId, adminUserId } = await createOrganization(db, {
    name: `Launch bench ${suffix}`,
    domain: null,
    products: ['learn'],
    admin: { email: `launch-${suffix}@example.test`, password: 'bench password 1234', firstName: 'Bench', lastName: 'Admin' },
  })
  const { token } = await createTokens(SECRET, 3600).issue({
    sub: adminUserId,
    org: orgId,
    role: 'admin',
    products: ['learn'],
    sid: randomUUID(),
  })
  const courseId = randomUUID()
  await db
    .insertInto('courses')
    .values({ id: courseId, organization_id: orgId, title: 'Launch bench', s3_path: 'bench/', launch_file: 'index.html' })
    .execute()
  const packageId = randomUUID()
  await insertPackage(db, orgId, {
    id: packageId,
    courseId,
    prefix: `${orgId}/packages/${packageId}/`,
    parsed: {
      standard: 'cmi5',
      title: 'Launch bench',
      description: null,
      publisherId: 'https://example.com/bench',
      blocks: [],
      aus: [
        {
          publisherId: 'https://example.com/bench/au/0',
          title: 'Lesson',
          url: 'index.html',
          moveOn: 'Completed',
          masteryScore: null,
          launchMethod: 'AnyWindow',
          launchParameters: null,
          entitlementKey: null,
          activityType: null,
        },
      ],
    },
  })
  // One ship per assignment: a person has one active assignment per ship.
  const registrations = Array.from({ length: SESSIONS }, () => ({
    ship: randomUUID(),
    assignment: randomUUID(),
    registration: randomUUID(),
  }))
  const imoBase = 1_000_000 + (Date.now() % 8_000_000)
  await db
    .insertInto('ships')
    .values(registrations.map((r, n) => ({ id: r.ship, organization_id: orgId, name: `MV Bench ${n}`, imo_number: String(imoBase + n) })))
    .execute()
  await db
    .insertInto('assignments')
    .values(registrations.map((r) => ({ id: r.assignment, organization_id: orgId, user_id: adminUserId, ship_id: r.ship, role: 'Bosun' })))
    .execute()
  await db
    .insertInto('registrations')
    .values(registrations.map((r) => ({ id: r.registration, organization_id: orgId, assignment_id: r.assignment, course_id: courseId })))
    .execute()

  const call = async (path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'x-experience-api-version': '1.0.3' },
      body: JSON.stringify(body ?? {}),
    })
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    return res.json()
  }
  const bearer = { authorization: `Bearer ${token}` }

  // One open session per registration, initialized, as an AU holds it while the learner reads.
  const sessions: { id: string; actor: unknown; activityId: string; registration: string; auth: string }[] = []
  for (const { registration } of registrations) {
    const launched = await call(`/api/v1/learn/registrations/${registration}/launch`, bearer)
    const params = new URL(launched.url).searchParams
    const fetched = await call(params.get('fetch')!.replace(config.publicUrl, ''), {})
    const [key, secret] = Buffer.from(fetched['auth-token'], 'base64').toString('utf8').split(':')
    const session = {
      id: launched.sessionId,
      actor: JSON.parse(params.get('actor')!),
      activityId: params.get('activityId')!,
      registration,
      auth: basic(key, secret),
    }
    // As an AU: LMS.LaunchData first (cmi5 §10), then `initialized` in its context template.
    const state = new URLSearchParams({ activityId: session.activityId, agent: params.get('actor')!, registration, stateId: 'LMS.LaunchData' })
    const launchData = await fetch(`${url}/api/v1/learn/xapi/activities/state?${state}`, {
      headers: { authorization: session.auth, 'x-experience-api-version': '1.0.3' },
    })
    if (!launchData.ok) throw new Error(`LMS.LaunchData: ${launchData.status}`)
    const { contextTemplate } = (await launchData.json()) as { contextTemplate: { contextActivities: { grouping: unknown[] } } }
    await call(
      '/api/v1/learn/xapi/statements',
      { authorization: session.auth },
      {
        id: randomUUID(),
        actor: session.actor,
        verb: { id: 'http://adlnet.gov/expapi/verbs/initialized' },
        object: { id: session.activityId },
        context: {
          registration,
          contextActivities: { grouping: contextTemplate.contextActivities.grouping, category: [{ id: CMI5 }] },
          extensions: { [SESSION_ID]: session.id },
        },
        timestamp: new Date().toISOString(),
      },
    )
    sessions.push(session)
  }
  const credential = await call('/api/v1/learn/xapi/credentials', bearer, { name: 'bench' })

  // The statement an AU sends most: an allowed `experienced`, a fresh id each time.
  const experienced = (s: (typeof sessions)[number]) =>
    JSON.stringify({
      id: '{{uuid}}',
      actor: s.actor,
      verb: { id: 'http://adlnet.gov/expapi/verbs/experienced' },
      object: { id: `${s.activityId}/page/2` },
      context: { registration: s.registration, extensions: { [SESSION_ID]: s.id } },
      timestamp: '2026-01-01T00:00:00.000Z',
    })
  const xapiHeaders = { 'x-experience-api-version': '1.0.3' }
  // Launch last: each launch abandons the registration's open session, which the statements use.
  const scenarios: { name: string; headers: Record<string, string>; requests: LoadRequest[] }[] = [
    {
      name: 'statement, LRS credential',
      headers: { ...xapiHeaders, authorization: basic(credential.key, credential.secret) },
      requests: sessions.map((s) => ({ method: 'POST', path: '/api/v1/learn/xapi/statements', body: experienced(s) })),
    },
    {
      name: 'statement, session credential',
      headers: xapiHeaders,
      requests: sessions.map((s) => ({
        method: 'POST',
        path: '/api/v1/learn/xapi/statements',
        body: experienced(s),
        headers: { authorization: s.auth },
      })),
    },
    {
      name: 'launch',
      headers: bearer,
      requests: registrations.map((r) => ({ method: 'POST', path: `/api/v1/learn/registrations/${r.registration}/launch`, body: '{}' })),
    },
  ]
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const work = mkdtempSync(join(tmpdir(), 'seaworthy-launch-bench-'))
  const results: Record<string, unknown> = { sessions: SESSIONS, connections: CONNECTIONS, durationSeconds: DURATION }
  for (const scenario of scenarios) {
    const spec: LoadSpec = { url, connections: CONNECTIONS, duration: DURATION, headers: scenario.headers, requests: scenario.requests }
    const cpu = await measureCpu(process.pid, client)
    const load = await runLoad(spec, scenario.name.replace(/\W+/g, '-'), work)
    results[scenario.name] = { ...load, cpu: await cpu(load.requests) }
    console.error(scenario.name, Math.round(load.rps), 'req/s', load.statusCodes)
  }
  console.log(JSON.stringify(results, null, 2))
  writeResults(RESULTS, results)
  await client.end()
  await app.close()
}

await main()
