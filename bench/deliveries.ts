// `npm run bench:deliveries`: webhook delivery throughput to a local receiver. Events are committed in
// batches while one service instance (the app, in this process) works the queue; the receiver notes
// when each arrives. Reports deliveries/s and the delay from commit to receipt (p50, p99, max).
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { fromPostgres, migrateToLatest } from '../src/db/database.js'
import type { DB } from '../src/db/schema.js'
import { eventsInsert } from '../src/lib/events.js'
import { uuidv7s } from '../src/lib/ids.js'
import { newSecret } from '../src/modules/platform/webhooks/webhooks.queries.js'
import { writeResults } from './report.js'

const env = process.env
const settings = {
  databaseUrl: env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/seaworthy_bench',
  events: Number(env.BENCH_EVENTS || 2000),
  batch: Number(env.BENCH_BATCH || 50),
  /** Pause between batches: a steady stream rather than one burst. */
  intervalMs: Number(env.BENCH_INTERVAL_MS || 20),
}
const RESULTS = env.BENCH_RESULTS || 'bench/results/deliveries.json'

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]

async function main(): Promise<void> {
  const received = new Map<string, number>()
  let done: () => void = () => {}
  const all = new Promise<void>((resolve) => {
    done = resolve
  })
  const receiver = createServer((req, res) => {
    received.set(String(req.headers['webhook-id']), performance.now())
    req.resume()
    req.on('end', () => res.writeHead(204).end())
    if (received.size === settings.events) done()
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bench`

  const database = fromPostgres(settings.databaseUrl, 20)
  await migrateToLatest(database.db)
  const config = loadConfig({
    DATABASE_URL: settings.databaseUrl,
    SEAWORTHY_JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'seaworthy-bench-')),
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_ALLOW_HTTP: '1',
    EXPIRY_SWEEP_INTERVAL_SECONDS: '86400',
  })
  const app = await buildApp({ config, database })
  await app.ready()
  const orgId = uuidv7()
  await database.db
    .insertInto('organizations')
    .values({ id: orgId, name: 'Delivery bench', domain: null, products: ['crew'] })
    .execute()
  await database.db
    .insertInto('webhooks')
    .values({ id: uuidv7(), organization_id: orgId, url, events: ['ship.*'], secret: newSecret() })
    .execute()

  const committed = new Map<string, number>()
  const source = { orgId, actor: null, requestId: null }
  const started = performance.now()
  for (let sent = 0; sent < settings.events; sent += settings.batch) {
    const size = Math.min(settings.batch, settings.events - sent)
    const ids = uuidv7s(size)
    const rows = sql<{ target_id: string; data: unknown }>`select null::uuid as target_id, jsonb_build_object('n', n) as data
      from generate_series(${sent}::int, ${sent + size - 1}::int) n`
    await eventsInsert<DB>(database.db, source, 'ship.updated', 'ship', rows, ids).execute()
    const at = performance.now()
    for (const id of ids) committed.set(id, at)
    await new Promise((resolve) => setTimeout(resolve, settings.intervalMs))
  }
  await all
  const seconds = (Math.max(...received.values()) - started) / 1000
  const delays = [...committed].map(([id, at]) => received.get(id)! - at).sort((a, b) => a - b)
  const result = {
    deliveries: received.size,
    seconds: Number(seconds.toFixed(2)),
    deliveriesPerSecond: Math.round(received.size / seconds),
    delayMs: { p50: Math.round(percentile(delays, 50)), p99: Math.round(percentile(delays, 99)), max: Math.round(delays.at(-1)!) },
  }
  console.log(
    `${result.deliveries} deliveries in ${result.seconds} s: ${result.deliveriesPerSecond}/s; commit → receipt p50 ${result.delayMs.p50} ms, p99 ${result.delayMs.p99} ms, max ${result.delayMs.max} ms`,
  )
  writeResults(RESULTS, { startedAt: new Date().toISOString(), settings: { ...settings, databaseUrl: undefined }, result })
  await app.close()
  receiver.close()
}

main().catch((error) => {
  console.error('The delivery benchmark could not run:', error instanceof Error ? error.message : error)
  process.exitCode = 1
})
