import { type Kysely, sql } from 'kysely'
import pg from 'pg'
import { type Database, fromPostgres, migrateToLatest } from '../src/db/database.js'
import { hashPassword } from '../src/lib/auth.js'
import * as statements from './seed-sql.js'
import { fillXapi, XAPI_SEED_VERSION } from './seed-xapi.js'

// Bump whenever the generated data changes: a database seeded by another version is rebuilt.
export const SEED_VERSION = 4
export const BENCH_PASSWORD = 'bench-password-1'

const ORGANIZATIONS = 20
const SMALL_ORG_SHARE = 0.005
// The largest organization at SCALE=1. Each assignment has REGS_PER courses (a registration each),
// and each registration 0-6 attempts (3 on average), so 1,000,000 registrations carry 3,000,000 attempts.
const LARGEST = { users: 50_000, ships: 1_000, courses: 200_000, assignments: 200_000, docs: 150_000 }
const MINIMUM = { users: 8, ships: 1, courses: 12, assignments: 1, docs: 3 }
const REGS_PER = 5

export interface OrgPlan {
  org_no: number
  users: number
  ships: number
  courses: number
  reg_courses: number
  assignments: number
  regs_per: number
  docs: number
}

export interface SeedInfo {
  reused: boolean
  seconds: number
  /** The LRS's statements (issue 26), seeded on their own: another count re-seeds only them. */
  xapi: { statements: number; reused: boolean; seconds: number }
  orgId: string
  adminId: string
  postgres: string
}

export function plan(scale: number): OrgPlan[] {
  return Array.from({ length: ORGANIZATIONS }, (_, org) => {
    const share = scale * (org === 0 ? 1 : SMALL_ORG_SHARE)
    const n = (key: keyof typeof LARGEST) => Math.max(MINIMUM[key], Math.round(LARGEST[key] * share))
    const courses = n('courses')
    // Half a percent of the courses (at least one) never get a registration: bulk remove-courses names them.
    const spare = Math.max(1, Math.round(courses * 0.005))
    return {
      org_no: org,
      users: n('users'),
      ships: n('ships'),
      courses,
      reg_courses: courses - spare,
      assignments: n('assignments'),
      regs_per: REGS_PER,
      docs: n('docs'),
    }
  })
}

/** Connects to the server's maintenance database and creates the bench database when it is missing. */
async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url)
  const name = decodeURIComponent(target.pathname.slice(1))
  const admin = new URL(url)
  admin.pathname = '/postgres'
  const client = new pg.Client({ connectionString: admin.toString() })
  await client.connect()
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name])
    if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(name)}`)
  } finally {
    await client.end()
  }
}

interface Meta {
  seed_version: number
  scale: number
  largest_org_id: string
  admin_user_id: string
  seed_seconds: number | null
  xapi_seed_version?: number | null
  xapi_statements?: string | null
  xapi_seed_seconds?: number | null
}

async function readMeta(db: Kysely<any>): Promise<Meta | undefined> {
  const { rows } = await sql<{ meta: string | null; orgs: string | null }>`
    select to_regclass('public.bench_meta')::text as meta, to_regclass('public.organizations')::text as orgs`.execute(db)
  if (rows[0].meta) {
    const meta = await sql<Meta>`select * from bench_meta`.execute(db)
    return meta.rows[0]
  }
  // Never wipe a database that holds data the benchmark did not put there.
  if (rows[0].orgs) {
    const orgs = await sql<{ n: number }>`select count(*)::int as n from organizations`.execute(db)
    if (orgs.rows[0].n > 0)
      throw new Error('BENCH_DATABASE_URL points to a database with organizations but no bench_meta table: refusing to reset it')
  }
  return undefined
}

async function resetSchema(db: Kysely<any>): Promise<void> {
  await sql`drop schema public cascade`.execute(db)
  await sql`create schema public`.execute(db)
}

async function timed(label: string, run: () => Promise<unknown>): Promise<void> {
  const started = performance.now()
  await run()
  console.log(`  ${label.padEnd(22)} ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

/** One seeding transaction: its settings, the helper functions and `seed_plan` (seed-sql.ts). */
function inSeedTransaction(db: Kysely<any>, scale: number, fillIn: (trx: Kysely<any>) => Promise<void>): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const run = (text: string) => sql.raw(text).execute(trx)
    await run('set local synchronous_commit = off')
    await run(`set local work_mem = '256MB'`)
    // Skips foreign-key and append-only triggers (superuser only): the ids are consistent by construction.
    const su = await sql<{ su: boolean }>`select rolsuper as su from pg_roles where rolname = current_user`.execute(trx)
    if (su.rows[0]?.su) await run('set local session_replication_role = replica')
    for (const statement of statements.SETUP) await run(statement)
    await sql`insert into seed_plan
      select x.org_no, pg_temp.uid('o', x.org_no, 0), x.users, x.ships, x.courses, x.reg_courses, x.assignments, x.regs_per, x.docs
      from json_to_recordset(${JSON.stringify(plan(scale))}::json) as x(org_no int, users int, ships int, courses int, reg_courses int,
        assignments int, regs_per int, docs int)`.execute(trx)
    await fillIn(trx)
  })
}

async function fill(db: Kysely<any>, scale: number): Promise<void> {
  const passwordHash = await hashPassword(BENCH_PASSWORD)
  await inSeedTransaction(db, scale, async (trx) => {
    const run = (text: string) => sql.raw(text).execute(trx)
    await sql`select set_config('bench.password_hash', ${passwordHash}, true)`.execute(trx)
    await timed('organizations', () => run(statements.ORGANIZATIONS))
    await timed('users', () => run(statements.USERS))
    await timed('ships', () => run(statements.SHIPS))
    await timed('courses', () => run(statements.COURSES))
    await timed('assignments', () => run(statements.ASSIGNMENTS))
    await timed('registrations+attempts', () => run(statements.LEARNING))
    await timed('course_stats', () => run(statements.COURSE_STATS))
    await timed('identity documents', () => run(statements.IDENTITY_DOCUMENTS))
    await timed('certificates', () => run(statements.CERTIFICATES))
    await timed('experience', () => run(statements.EXPERIENCES))
    await timed('sea-service totals', () => run(statements.SEA_SERVICE_TOTALS))
    await timed('readiness settings', async () => {
      for (const statement of statements.READINESS) await run(statement)
    })
    await run(`create table bench_meta (seed_version integer not null, scale double precision not null, largest_org_id uuid not null,
      admin_user_id uuid not null, seed_seconds double precision, seeded_at timestamptz not null default now())`)
    await sql`insert into bench_meta (seed_version, scale, largest_org_id, admin_user_id)
      values (${SEED_VERSION}, ${scale}, pg_temp.uid('o', 0, 0), pg_temp.uid('u', 0, 0))`.execute(trx)
  })
  await timed('vacuum analyze', () => sql`vacuum analyze`.execute(db))
}

/**
 * The LRS's statements, unless the database holds this many of this version. Replacing them empties the
 * LRS tables first, which their append-only trigger allows only with triggers off (as superuser).
 */
async function seedXapi(db: Kysely<any>, scale: number, count: number, meta: Meta): Promise<SeedInfo['xapi']> {
  await sql`alter table bench_meta add column if not exists xapi_seed_version integer,
    add column if not exists xapi_statements bigint, add column if not exists xapi_seed_seconds double precision`.execute(db)
  if (meta.xapi_seed_version === XAPI_SEED_VERSION && Number(meta.xapi_statements) === count)
    return { statements: count, reused: true, seconds: meta.xapi_seed_seconds ?? 0 }
  console.log(`Seeding ${count.toLocaleString('en')} xAPI statements (xAPI seed version ${XAPI_SEED_VERSION})…`)
  const started = performance.now()
  await inSeedTransaction(db, scale, async (trx) => {
    await sql`truncate xapi_statements, xapi_activities, xapi_documents, xapi_attachments, xapi_credentials`.execute(trx)
    await fillXapi(trx, count, timed)
  })
  await timed('vacuum analyze (xAPI)', () => sql`vacuum analyze xapi_statements, xapi_activities, xapi_documents`.execute(db))
  const seconds = (performance.now() - started) / 1000
  await sql`update bench_meta set xapi_seed_version = ${XAPI_SEED_VERSION}, xapi_statements = ${count}, xapi_seed_seconds = ${seconds}`.execute(
    db,
  )
  console.log(`Seeding the xAPI statements took ${seconds.toFixed(1)} s`)
  return { statements: count, reused: false, seconds }
}

/** Migrates, then seeds unless the database already holds this seed version at this scale (and this many statements). */
export async function seed(url: string, scale: number, xapiStatements: number): Promise<SeedInfo> {
  await ensureDatabase(url)
  const database: Database = fromPostgres(url, 2)
  const db = database.db as Kysely<any>
  try {
    let meta = await readMeta(db)
    const reused = meta?.seed_version === SEED_VERSION && meta.scale === scale
    let seconds = meta?.seed_seconds ?? 0
    if (!reused) {
      console.log(`Seeding ${url} at SCALE=${scale} (seed version ${SEED_VERSION})…`)
      const started = performance.now()
      if (meta) await resetSchema(db)
      await migrateToLatest(db)
      await fill(db, scale)
      seconds = (performance.now() - started) / 1000
      await sql`update bench_meta set seed_seconds = ${seconds}`.execute(db)
      console.log(`Seeding took ${seconds.toFixed(1)} s`)
      meta = await readMeta(db)
    } else {
      await migrateToLatest(db)
      console.log(`Re-using the seeded database (seed version ${SEED_VERSION}, SCALE=${scale}, seeded in ${seconds.toFixed(1)} s)`)
    }
    if (!meta) throw new Error('bench_meta is missing after seeding')
    const xapi = await seedXapi(db, scale, xapiStatements, meta)
    const version = await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)
    return { reused, seconds, xapi, orgId: meta.largest_org_id, adminId: meta.admin_user_id, postgres: version.rows[0].v }
  } finally {
    await database.close()
  }
}
