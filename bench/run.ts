// `npm run bench`: seeds (or re-uses) the bench database, serves the production build and loads
// each scenario from a separate process. Exits 0 when it ran, whatever the targets say.
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { measureCpu } from './cpu.js'
import { apiOf, prepareBench, probe, settle } from './harness.js'
import type { LoadRequest, LoadSpec } from './load.js'
import { runLoad } from './run-load.js'
import { measureRuntime } from './runtime.js'
import { evaluateTargets, gcOf, loopOf, type Row, renderTable, renderTargets, writeResults } from './report.js'
import type { Api, Scenario } from './scenario.js'
import { scenarios } from './scenarios.js'
import { plan } from './seed.js'
import { type Server, startBareServer, startServer } from './server.js'

const env = process.env
const settings = {
  databaseUrl: env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/seaworthy_bench',
  scale: Number(env.SCALE || 1),
  duration: Number(env.BENCH_DURATION || 10),
  connections: Number(env.BENCH_CONNECTIONS || 32),
  /** Statements in the LRS (issue 26 asks for at least 5 million); fewer for a quick check. */
  xapiStatements: Number(env.BENCH_XAPI_STATEMENTS || 5_000_000),
  only: env.BENCH_ONLY ? env.BENCH_ONLY.split(',') : null,
  /** Another build to serve (e.g. a checkout of the previous commit), for before/after comparisons. */
  serverEntry: env.BENCH_SERVER || 'dist/src/server.js',
  /** Server processes (node:cluster), as `WORKERS` in production. */
  workers: Number(env.BENCH_WORKERS || 1),
}
/** Run whatever BENCH_ONLY names: the ceilings every share is taken of. */
const ALWAYS = ['baseline', 'bare-fastify']
const RESULTS = env.BENCH_RESULTS || 'bench/results/latest.json'
const workDir = mkdtempSync(join(tmpdir(), 'seaworthy-bench-'))
const WARMUP_SECONDS = 3

async function runScenario(
  server: Server,
  postgres: pg.Client,
  headers: Record<string, string>,
  api: Api,
  scenario: Scenario,
  { settle: waitForQuiet = true } = {},
): Promise<Row> {
  const row: Row = { name: scenario.name, title: scenario.title, rssMb: 0 }
  let requests: LoadRequest[]
  try {
    requests = await scenario.prepare(api)
    row.note = await probe(server.url, headers, requests[0])
  } catch (error) {
    row.note = `not run: ${error instanceof Error ? error.message : error}`
    return row
  }
  const connections = scenario.connections ?? settings.connections
  const spec: LoadSpec = { url: server.url, connections, duration: settings.duration, headers, requests }
  // Unrecorded load first: the JIT, the pool's connections and each statement's first use on them (named once
  // per connection) would otherwise land in the first seconds measured, and in the first scenario most. It walks
  // the requests from their other end, so the writes measured are not ones it already made (a bulk update sent
  // again changes nothing).
  await runLoad({ ...spec, requests: [...requests].reverse(), duration: WARMUP_SECONDS }, 'warmup', workDir)
  // A sweeping scenario's sweep is the point: its queries are not waited out.
  if (waitForQuiet) await settle(postgres)
  server.takePeakRss()
  const cpu = await measureCpu(server.pid, postgres)
  const runtime = await measureRuntime(server.url)
  row.result = await runLoad(spec, scenario.name, workDir)
  row.rssMb = server.takePeakRss()
  row.runtime = await runtime()
  row.cpu = await cpu(row.result.requests)
  const r = row.result
  console.log(
    `  ${scenario.name.padEnd(26)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  non-2xx ${r.non2xx}  CPU/request: server ${row.cpu.serverUs} µs, PostgreSQL ${row.cpu.postgresUs} µs, MultiXacts/request ${row.cpu.multixacts ?? '–'}, event loop p50/p99/max ${loopOf(row)} ms, GC ${gcOf(row)}`,
  )
  return row
}

const SWEEP_JOB = 'sea-service-sweep'
const SWEEP_START_MS = 60_000

/**
 * The scenario on a server of its own with the background jobs on and the contract sea-service sweep due
 * over the whole fleet (every organization's mark cleared: its next run re-reads every ended contract, as
 * a first run does): loaded once the sweep holds its lease, the row notes whether it still ran at the end.
 */
async function whileSweeping(postgres: pg.Client, secret: string, headers: Record<string, string>, scenario: Scenario) {
  await postgres.query('delete from sweep_marks where job = $1', [SWEEP_JOB])
  const server = await startServer(settings.databaseUrl, secret, settings.serverEntry, {
    env: { WORKERS: String(settings.workers), RUN_JOBS: '1' },
  })
  try {
    const leased = async () => (await postgres.query('select 1 from job_leases where job = $1', [SWEEP_JOB])).rowCount === 1
    const deadline = Date.now() + SWEEP_START_MS
    while (!(await leased()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200))
    const row = await runScenario(server, postgres, headers, apiOf(server.url, headers), scenario, { settle: false })
    row.note = [row.note, (await leased()) ? 'the sweep ran throughout' : 'the sweep ended before the load did'].filter(Boolean).join('; ')
    return row
  } finally {
    await server.stop()
  }
}

function withoutPassword(url: string): string {
  const parsed = new URL(url)
  if (parsed.password) parsed.password = '***'
  return parsed.toString()
}

function machine(postgres: string) {
  return {
    nproc: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    cpu: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    postgres,
  }
}

async function main(): Promise<void> {
  for (const [name, value] of Object.entries({
    SCALE: settings.scale,
    BENCH_DURATION: settings.duration,
    BENCH_CONNECTIONS: settings.connections,
    BENCH_XAPI_STATEMENTS: settings.xapiStatements,
    BENCH_WORKERS: settings.workers,
  })) {
    if (!(value > 0)) throw new Error(`${name} must be a positive number`)
  }
  const startedAt = new Date().toISOString()
  const { seeded, fixtures, secret, headers } = await prepareBench(settings.databaseUrl, settings.scale, settings.xapiStatements)
  const list = scenarios(fixtures).filter((s) => !settings.only || ALWAYS.includes(s.name) || settings.only.includes(s.name))
  const server = await startServer(settings.databaseUrl, secret, settings.serverEntry, { env: { WORKERS: String(settings.workers) } })
  const bare = await startBareServer()
  // Reads pg_stat_activity for the backends of the bench database: their CPU per scenario.
  const postgres = new pg.Client({ connectionString: settings.databaseUrl })
  await postgres.connect()
  const rows: Row[] = []
  let highWaterMb = 0
  let serverErrors: string[] = []
  try {
    const api = apiOf(server.url, headers)
    // A short unrecorded run first, so that the baseline does not pay for the JIT warming up.
    await runLoad(
      { url: server.url, connections: settings.connections, duration: 3, headers, requests: [{ method: 'GET', path: '/healthz' }] },
      'warmup',
      workDir,
    )
    // The server is this process's Node.js (bench/server.ts): `.ci/node24 npm run bench` measures Node 24.
    console.log(
      `Load: ${settings.duration} s × ${settings.connections} connections per scenario, server pid ${server.pid} on Node.js ${process.version}`,
    )
    for (const scenario of list) {
      if (scenario.server === 'sweeping') rows.push(await whileSweeping(postgres, secret, headers, scenario))
      else rows.push(await runScenario(scenario.server === 'bare' ? bare : server, postgres, headers, api, scenario))
    }
    highWaterMb = server.highWaterMark()
    serverErrors = server.loggedErrors()
  } finally {
    await Promise.all([server.stop(), bare.stop(), postgres.end()])
  }
  const targets = evaluateTargets(rows, highWaterMb)
  console.log(`\nNode.js ${process.version}\n\n${renderTable(rows)}\n\nTargets:\n${renderTargets(targets)}\n`)
  if (serverErrors.length > 0) console.log(`Errors the server logged:\n${serverErrors.map((e) => `- ${e}`).join('\n')}\n`)
  writeResults(RESULTS, {
    startedAt,
    settings: { ...settings, databaseUrl: withoutPassword(settings.databaseUrl) },
    machine: machine(seeded.postgres),
    seed: seeded,
    volumesOfLargestOrg: plan(settings.scale)[0],
    serverRssHighWaterMb: highWaterMb,
    rows,
    targets,
    serverErrors,
  })
  console.log(`Wrote ${RESULTS}`)
}

main()
  .catch((error) => {
    console.error('The benchmark could not run:', error instanceof Error ? error.message : error)
    process.exitCode = 1
  })
  .finally(() => rmSync(workDir, { recursive: true, force: true }))
