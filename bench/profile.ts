// `npm run bench:profile`: where each scenario's CPU goes (issue 30). Per scenario, the production build
// is served afresh under `--cpu-prof`, loaded as in `npm run bench`, and read three ways: the server's CPU
// profile over the load, split by layer and function (bench/profile-summary.ts); PostgreSQL's own
// statements (pg_stat_statements: calls, time, per request); and, after the load, a few requests with
// auto_explain on, which logs each statement's EXPLAIN (ANALYZE, BUFFERS) with its triggers' time. Both
// extensions must be preloaded, so the database is always in a cluster of the profiler's own
// (bench/profile-postgres.ts), whose log the plans are read from and whose settings the explain pass
// changes: never a shared server. Writes bench/results/profile.md and profile.json.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { measureCpu } from './cpu.js'
import { apiOf, prepareBench, probe, send, settle } from './harness.js'
import type { LoadRequest } from './load.js'
import { ensureProfilePostgres, profileLog } from './profile-postgres.js'
import { renderProfile, type ScenarioProfile } from './profile-report.js'
import { type CpuProfile, summarizeProfile } from './profile-summary.js'
import { writeResults } from './report.js'
import { runLoad } from './run-load.js'
import { scenarios } from './scenarios.js'
import { startServer } from './server.js'

const env = process.env
const DEFAULT_SCENARIOS =
  'baseline,assignment-get,courses-first,courses-search,document-create,assignment-patch,attempt-record,bulk-update-10,bulk-update-1000'
const settings = {
  databaseUrl: ensureProfilePostgres(env.PROFILE_DATABASE || 'seaworthy_bench'),
  scale: Number(env.SCALE || 1),
  duration: Number(env.BENCH_DURATION || 10),
  connections: Number(env.BENCH_CONNECTIONS || 32),
  xapiStatements: Number(env.BENCH_XAPI_STATEMENTS || 50_000),
  only: (env.BENCH_ONLY || DEFAULT_SCENARIOS).split(','),
  serverEntry: env.BENCH_SERVER || 'dist/src/server.js',
  /** Requests sent with auto_explain on, after the load. */
  explained: 3,
}
const RESULTS_DIR = 'bench/results'
const workDir = mkdtempSync(join(tmpdir(), 'seaworthy-profile-'))

/** PostgreSQL's statements of the bench database since the last reset, the harness's own left out. */
async function statements(postgres: pg.Client, requests: number): Promise<ScenarioProfile['statements']> {
  const { rows } = await postgres.query(`
    select regexp_replace(query, '\\s+', ' ', 'g') as query, calls::float8 as calls, total_exec_time as total_ms,
      shared_blks_hit::float8 as hit, shared_blks_read::float8 as read, rows::float8 as rows
    from pg_stat_statements s join pg_database d on d.oid = s.dbid
    where d.datname = current_database() and query !~* '(pg_stat|pg_control|checkpoint|pg_reload_conf|alter system|pg_backend_pid)'
    order by total_exec_time desc`)
  const per = (n: number) => n / Math.max(requests, 1)
  return {
    perRequest: {
      calls: per(rows.reduce((sum, row) => sum + row.calls, 0)),
      execUs: 1000 * per(rows.reduce((sum, row) => sum + row.total_ms, 0)),
    },
    top: rows.slice(0, 6).map((row) => ({
      query: row.query.slice(0, 140),
      callsPerRequest: per(row.calls),
      meanUs: (1000 * row.total_ms) / Math.max(row.calls, 1),
      usPerRequest: 1000 * per(row.total_ms),
      blocksPerCall: (row.hit + row.read) / Math.max(row.calls, 1),
    })),
  }
}

interface LoggedPlan {
  'Query Text': string
  Plan: { 'Actual Total Time': number; 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number; 'Shared Dirtied Blocks'?: number }
  Triggers?: { 'Trigger Name': string; Relation?: string; Time: number; Calls: number }[]
}

/** The plans auto_explain logged after `offset` (log_format json: a `plan:` line, then the JSON, tab-indented). */
function loggedPlans(offset: number): LoggedPlan[] {
  const text = readFileSync(profileLog, 'utf8').slice(offset)
  const plans: LoggedPlan[] = []
  for (const entry of text.split(/\n(?=\d{4}-\d\d-\d\d )/)) {
    const at = entry.indexOf('plan:\n')
    if (at < 0) continue
    try {
      plans.push(JSON.parse(entry.slice(at + 6).replace(/^\t/gm, '')))
    } catch {
      // a plan cut by the log's rotation: not worth a row
    }
  }
  return plans.filter((plan) => !/pg_stat|alter system|pg_reload_conf|pg_backend_pid/i.test(plan['Query Text']))
}

/** A few of the scenario's requests with every statement's plan logged: the writes' EXPLAIN (ANALYZE, BUFFERS) and trigger time. */
async function explainPass(
  postgres: pg.Client,
  url: string,
  headers: Record<string, string>,
  requests: LoadRequest[],
): Promise<ScenarioProfile['plans']> {
  const toggle = async (on: boolean) => {
    await postgres.query(on ? 'alter system set auto_explain.log_min_duration = 0' : 'alter system reset auto_explain.log_min_duration')
    await postgres.query('select pg_reload_conf()')
    await sleep(500)
  }
  const offset = statSync(profileLog).size
  await toggle(true)
  try {
    for (let i = 0; i < settings.explained; i++) await (await send(url, headers, requests[i % requests.length])).arrayBuffer()
  } finally {
    await toggle(false)
  }
  const plans = loggedPlans(offset)
  const byQuery = new Map<string, LoggedPlan[]>()
  for (const plan of plans) {
    const key = plan['Query Text'].replace(/\s+/g, ' ').slice(0, 140)
    byQuery.set(key, [...(byQuery.get(key) ?? []), plan])
  }
  return [...byQuery].map(([query, seen]) => {
    const last = seen[seen.length - 1]
    return {
      query,
      perRequest: seen.length / settings.explained,
      ms: last.Plan['Actual Total Time'],
      blocks: {
        hit: last.Plan['Shared Hit Blocks'] ?? 0,
        read: last.Plan['Shared Read Blocks'] ?? 0,
        dirtied: last.Plan['Shared Dirtied Blocks'] ?? 0,
      },
      triggers: (last.Triggers ?? []).map((t) => ({ name: t['Trigger Name'], relation: t.Relation ?? '', ms: t.Time, calls: t.Calls })),
      plan: last,
    }
  })
}

async function main(): Promise<void> {
  const { seeded, fixtures, secret, headers } = await prepareBench(settings.databaseUrl, settings.scale, settings.xapiStatements)
  const postgres = new pg.Client({ connectionString: settings.databaseUrl })
  await postgres.connect()
  await postgres.query('create extension if not exists pg_stat_statements')
  const profiles: ScenarioProfile[] = []
  const profileDir = join(RESULTS_DIR, 'profiles')
  mkdirSync(profileDir, { recursive: true })
  try {
    for (const scenario of scenarios(fixtures).filter((s) => settings.only.includes(s.name) && !s.server)) {
      const file = `${scenario.name}.cpuprofile`
      const server = await startServer(settings.databaseUrl, secret, settings.serverEntry, {
        nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${file}`],
      })
      try {
        const requests = await scenario.prepare(apiOf(server.url, headers))
        const note = await probe(server.url, headers, requests[0])
        const spec = { url: server.url, connections: scenario.connections ?? settings.connections, headers, requests }
        await runLoad({ ...spec, duration: 3 }, 'warmup', workDir)
        await settle(postgres)
        await postgres.query('select pg_stat_statements_reset()')
        const cpu = await measureCpu(server.pid, postgres)
        const loadStarted = performance.now()
        const result = await runLoad({ ...spec, duration: settings.duration }, scenario.name, workDir)
        const loadEnded = performance.now()
        const cpuPerRequest = await cpu(result.requests)
        const pgStatements = await statements(postgres, result.requests)
        const plans = await explainPass(postgres, server.url, headers, requests)
        await server.stop()
        const exited = performance.now()
        const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile
        const span = profile.endTime - profile.startTime
        const window = { fromUs: span - 1000 * (exited - loadStarted), toUs: span - 1000 * (exited - loadEnded) }
        const entry: ScenarioProfile = {
          name: scenario.name,
          title: scenario.title,
          note,
          result,
          cpu: cpuPerRequest,
          server: summarizeProfile(profile, window, result.requests),
          statements: pgStatements,
          plans,
        }
        profiles.push(entry)
        console.log(
          `  ${scenario.name.padEnd(18)} ${result.rps.toFixed(0).padStart(6)} req/s  server ${cpuPerRequest.serverUs} µs, PostgreSQL ${cpuPerRequest.postgresUs} µs per request`,
        )
      } finally {
        await server.stop()
      }
    }
  } finally {
    await postgres.end()
  }
  const markdown = renderProfile(profiles)
  console.log(`\n${markdown}`)
  writeResults(join(RESULTS_DIR, 'profile.json'), { seed: seeded, settings: { ...settings, databaseUrl: undefined }, profiles })
  writeFileSync(join(RESULTS_DIR, 'profile.md'), markdown)
  console.log(`Wrote ${RESULTS_DIR}/profile.md, profile.json and the CPU profiles in ${profileDir} (open them in Chrome DevTools)`)
}

main()
  .catch((error) => {
    console.error('The profile could not run:', error instanceof Error ? error.message : error)
    process.exitCode = 1
  })
  .finally(() => rmSync(workDir, { recursive: true, force: true }))
