import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import fc from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import { type App, buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { type Db, fromPglite, migrateToLatest, pgliteOptions } from '../src/db/database.js'
import { type Operation, servedOperations } from '../test/served-routes.js'
import { AnswerChecker, operationOf, routedOperation } from './check.js'
import { playLearning, ScenarioStopped } from './learning.js'
import { type Plan, planArb, type Request, render } from './requests.js'
import { type Caller, World } from './world.js'

// npm run fuzz -- [--requests N] [--seed N]: property-based requests to every operation of the served
// OpenAPI document, as every role and as strangers, against the app built in-process on PGlite.
// Fails on the first 5xx, undocumented status or body that breaks its documented schema.

const { values: args } = parseArgs({
  options: { requests: { type: 'string', default: '20000' }, seed: { type: 'string' } },
})
const requests = Number(args.requests)
const seed = args.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(args.seed)
if (!Number.isInteger(requests) || requests < 1 || !Number.isInteger(seed)) {
  console.error('usage: npm run fuzz -- [--requests N] [--seed N]')
  process.exit(2)
}

const ANSWER_TIMEOUT_MS = 30_000
const SECRET = 'fuzz-secret-fuzz-secret-fuzz-secret-0123456789'
/** Valid requests of every creating operation before the run, so the run finds real rows to name. */
const WARM_UP_ROUNDS = 4
const WARM_UP_CALLERS: Caller[] = ['admin', 'admin', 'office_admin', 'crew', 'other:admin']

interface Failure {
  index: number
  request: Request
  response?: LightMyRequestResponse
  problem: string
  logged: string[]
}

const serverErrors: string[] = []
const dataDir = mkdtempSync(join(tmpdir(), 'seaworthy-fuzz-'))

async function buildFuzzApp(): Promise<{ app: App; db: Db }> {
  const pglite = await PGlite.create(pgliteOptions())
  const database = fromPglite(pglite)
  await migrateToLatest(database.db)
  const config = loadConfig({ DATA_DIR: dataDir, SEAWORTHY_JWT_SECRET: SECRET, LOG_LEVEL: 'error' })
  // Errors the app logs are kept, to be shown with the request that caused them.
  const stream = { write: (line: string) => void serverErrors.push(line.slice(0, 4000)) }
  const app = await buildApp({ config, database, logger: { level: 'error', stream } })
  await app.ready()
  return { app, db: database.db }
}

async function answer(app: App, request: Request): Promise<LightMyRequestResponse> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)), ANSWER_TIMEOUT_MS)
  })
  try {
    return await Promise.race([app.inject(request), timeout])
  } finally {
    clearTimeout(timer)
  }
}

function shown(payload: string | Buffer | undefined, limit = 2000): string {
  if (payload === undefined) return '(none)'
  const text = Buffer.isBuffer(payload) ? `<bytes ${payload.toString('hex')}>` : JSON.stringify(payload)
  return text.length > limit ? `${text.slice(0, limit)}… (${payload.length} in all)` : text
}

function report(failure: Failure): void {
  const { request, response } = failure
  const lines = [
    '',
    `FUZZ FAILURE after ${failure.index + 1} requests: ${failure.problem}`,
    `  reproduce: npm run fuzz -- --seed ${seed} --requests ${failure.index + 1}`,
    `  request:  ${request.method} ${shown(request.url, 4000)}`,
    `  headers:  ${JSON.stringify(request.headers)}`,
    `  body:     ${shown(request.payload)}`,
  ]
  if (response) {
    lines.push(`  answer:   ${response.statusCode} ${JSON.stringify(response.headers)}`, `  body:     ${shown(response.body)}`)
  }
  for (const line of failure.logged) lines.push(`  logged:   ${line.trim()}`)
  console.error(lines.join('\n'))
}

async function main(): Promise<number> {
  const started = Date.now()
  const { app, db } = await buildFuzzApp()
  const operations = await servedOperations(app)
  const world = await World.create(
    db,
    SECRET,
    operations.map((op) => op.path),
  )
  const checker = new AnswerChecker(operations)
  const plans = operations.map((op, i) => planArb(op, i))
  const counts = operations.map(() => new Map<number, number>())
  let sent = 0
  let failure: Failure | undefined

  /** Sends a request, checks its answer and learns its ids; null (with `failure` set) when it broke the document. */
  const exchange = async (request: Request, caller: Caller, planned?: Operation): Promise<LightMyRequestResponse | null> => {
    const index = sent++
    const logged = serverErrors.length
    let response: LightMyRequestResponse | undefined
    try {
      response = await answer(app, request)
    } catch (error) {
      failure = { index, request, problem: String(error), logged: serverErrors.slice(logged) }
      return null
    }
    const routed = planned ? routedOperation(operations, planned, request.url) : operationOf(operations, request.method, request.url)
    const counted = routed ? operations.indexOf(routed) : -1
    if (counted >= 0) counts[counted].set(response.statusCode, (counts[counted].get(response.statusCode) ?? 0) + 1)
    const problem = checker.problem(routed, response, request.url)
    if (problem) {
      failure = { index, request, response, problem, logged: serverErrors.slice(logged) }
      return null
    }
    if (response.statusCode < 300) {
      // Only JSON answers name ids to reuse (a list's CSV export is text).
      const json = String(response.headers['content-type'] ?? '').startsWith('application/json')
      if (response.body && routed && json) world.harvest(JSON.parse(response.body), caller, routed.path)
      if (request.method !== 'GET') await world.repairCallers(`${request.url} ${request.payload ?? ''}`)
    }
    if (sent % 2000 === 0) console.log(`  ${sent} requests, ${Math.round(sent / ((Date.now() - started) / 1000))}/s`)
    return response
  }
  const send = async (plan: Plan): Promise<boolean> =>
    (await exchange(render(plan, operations[plan.op], world), plan.caller, operations[plan.op])) !== null

  console.log(`fuzz: seed ${seed}, ${requests} requests over ${operations.length} operations`)
  try {
    const played = await playLearning(world, exchange, (request) => answer(app, request))
    console.log(`  learning happy path: ${played.length} requests (imports, launches, cmi5 statements, SCORM commits, LRS credentials)`)
  } catch (error) {
    if (!(error instanceof ScenarioStopped))
      failure = { index: sent, request: { method: 'GET', url: '(learning happy path)', headers: {} }, problem: String(error), logged: [] }
  }

  // Creating operations first, then the reads that list what was made; nothing is deleted yet.
  const creators = [...operations.keys()]
    .filter((i) => operations[i].method !== 'DELETE')
    .sort((i, j) => Number(operations[i].method === 'GET') - Number(operations[j].method === 'GET'))
  const creating = creators.map((i) => WARM_UP_CALLERS.map((caller) => planArb(operations[i], i, { caller })))
  for (let round = 0; round < WARM_UP_ROUNDS && !failure; round++) {
    for (const [c, byCaller] of creating.entries()) {
      for (const [k, arb] of byCaller.entries()) {
        const [plan] = fc.sample(arb, { seed: seed + round * 100_003 + c * 101 + k, numRuns: 1 })
        if (!(await send(plan))) break
      }
      if (failure) break
    }
  }
  const warmUp = sent
  if (!failure) {
    console.log(`  warm-up: ${warmUp} valid requests; ids of organization A by kind: ${world.poolSizes()}`)
    const anyPlan = fc.integer({ min: 0, max: plans.length - 1 }).chain((i) => plans[i])
    await fc.check(fc.asyncProperty(anyPlan, send), { seed, numRuns: requests, endOnFailure: true })
  }
  await app.close()
  rmSync(dataDir, { recursive: true, force: true })

  if (failure) {
    report(failure)
    return 1
  }
  printCoverage(operations, counts)
  console.log(`fuzz: ${sent} requests (${warmUp} warm-up) in ${Math.round((Date.now() - started) / 1000)} s, seed ${seed}: no failure`)
  return 0
}

function printCoverage(operations: Operation[], counts: Map<number, number>[]): void {
  console.log('answers per operation (status × count):')
  operations.forEach((op, i) => {
    const byStatus = [...counts[i].entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`)
    console.log(`  ${`${op.method} ${op.path}`.padEnd(66)} ${byStatus.join(' ')}`)
  })
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error('fuzz: could not run:', error)
    process.exit(2)
  },
)
