import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { CpuPerRequest } from './cpu.js'
import type { LoadResult } from './load.js'
import type { Runtime } from './runtime.js'

export interface Row {
  name: string
  title: string
  /** Absent when the scenario could not be prepared (see note). */
  result?: LoadResult
  rssMb: number
  /** Server and PostgreSQL CPU per request, in µs. */
  cpu?: CpuPerRequest
  /** The server's event-loop delay and GC pauses over the load (absent for the bare app, which has no /metrics). */
  runtime?: Runtime
  note?: string
}

/** Event-loop delay p50 / p99 / max over the load, ms. */
export const loopOf = (row: Row) => (row.runtime ? `${row.runtime.loopP50Ms} / ${row.runtime.loopP99Ms} / ${row.runtime.loopMaxMs}` : '–')
/** GC pauses over the load: total ms (major ms) in how many pauses. */
export const gcOf = (row: Row) => (row.runtime ? `${row.runtime.gcMs} ms (major ${row.runtime.gcMajorMs}) in ${row.runtime.gcPauses}` : '–')

export interface Target {
  goal: string
  met: boolean
  detail: string
}

const RSS_LIMIT_MB = 300
// DECISIONS §10's reads: each first page within 3 × the courses first page, and flat in page depth.
const READINESS_FIRST_PAGES: [string, string][] = [
  ['readiness-first', 'fleet readiness first page'],
  ['readiness-not-ready', 'fleet readiness ready=false'],
  ['ship-readiness', 'ship readiness summary'],
  ['expiring-first', 'fleet expiry list first page'],
]
const READINESS_DEEP_PAGES: [string, string, string][] = [
  ['readiness-deep', 'readiness-first', 'fleet readiness'],
  ['expiring-deep', 'expiring-first', 'fleet expiry list'],
  ['sea-service-deep', 'sea-service-fleet', 'fleet sea service'],
]
const SEA_SERVICE_PAGES: [string, string, number][] = [
  ['sea-service-summary', 'sea-service summary', 2],
  ['sea-service-fleet', 'fleet sea service first page', 3],
]
const clean = (row?: Row) => !!row?.result && row.result.errors === 0 && row.result.non2xx === 0
const fmt = (n: number, digits = 0) => n.toFixed(digits)

/** A ratio between scenarios only means something when both answered 2xx throughout. */
function ratio(goal: string, rows: Row[], names: [string, string], measure: (a: LoadResult, b: LoadResult) => [boolean, string]): Target {
  const [a, b] = names.map((name) => rows.find((row) => row.name === name))
  if (!a || !b) return { goal, met: false, detail: `not run (${names.join(', ')})` }
  if (!clean(a) || !clean(b)) {
    const failing = [a, b].filter((row) => !clean(row)).map((row) => row.name)
    return { goal, met: false, detail: `scenario failing: ${failing.join(', ')}` }
  }
  const [met, detail] = measure(a.result as LoadResult, b.result as LoadResult)
  return { goal, met, detail }
}

/** An absolute target on one scenario (it too only counts when the scenario answered 2xx throughout). */
function single(goal: string, rows: Row[], name: string, measure: (r: LoadResult) => [boolean, string]): Target {
  const row = rows.find((r) => r.name === name)
  if (!row) return { goal, met: false, detail: `not run (${name})` }
  if (!clean(row)) return { goal, met: false, detail: `scenario failing: ${name}${row.note ? ` (${row.note})` : ''}` }
  const [met, detail] = measure(row.result as LoadResult)
  return { goal, met, detail }
}

// Issue 26's Learning Record Store targets.
function xapiTargets(rows: Row[]): Target[] {
  return [
    ratio('xAPI POST one statement ≥ 40 % of courses first page req/s', rows, ['xapi-post-one', 'courses-first'], (one, first) => {
      const share = (100 * one.rps) / first.rps
      return [share >= 40, `${fmt(share, 1)} % (${fmt(one.rps)} of ${fmt(first.rps)} req/s)`]
    }),
    single('xAPI batch of 1,000 stored in ≤ 150 ms p50', rows, 'xapi-post-1000', (batch) => [
      batch.p50 <= 150,
      `p50 ${batch.p50} ms, p99 ${batch.p99} ms`,
    ]),
    ratio('xAPI GET by registration p99 ≤ 2 × courses first page p99', rows, ['xapi-get-registration', 'courses-first'], (reg, first) => [
      reg.p99 <= 2 * first.p99,
      `${reg.p99} ms vs ${first.p99} ms (${fmt(reg.p99 / first.p99, 2)} ×)`,
    ]),
  ]
}

// Issue 30's targets: each scenario's req/s as a share of the service's own /healthz, and of that
// /healthz against a bare Fastify app (bench/bare-app.ts) on the same machine.
const SHARES_OF_BASELINE: [string, string, number][] = [
  ['assignment-get', 'get one assignment', 35],
  ['courses-first', 'list courses first page', 30],
  ['courses-search', 'course search', 20],
  ['document-create', 'create identity document', 12],
  ['assignment-patch', 'PATCH assignment', 12],
  ['attempt-record', 'record an attempt', 12],
]
const CREATE_CPU_US = { server: 250, postgres: 300 }

function shareOf(goal: string, rows: Row[], names: [string, string], percent: number): Target {
  return ratio(goal, rows, names, (a, b) => {
    const share = (100 * a.rps) / b.rps
    return [share >= percent, `${fmt(share, 1)} % (${fmt(a.rps)} of ${fmt(b.rps)} req/s)`]
  })
}

function pipelineTargets(rows: Row[]): Target[] {
  const create = rows.find((row) => row.name === 'document-create')
  const cpu = create?.cpu && clean(create) ? create.cpu : undefined
  return [
    shareOf('/healthz with every production hook ≥ 70 % of a bare Fastify app', rows, ['baseline', 'bare-fastify'], 70),
    ...SHARES_OF_BASELINE.map(([name, label, percent]) =>
      shareOf(`${label} ≥ ${percent} % of baseline req/s`, rows, [name, 'baseline'], percent),
    ),
    {
      goal: `create identity document: server CPU ≤ ${CREATE_CPU_US.server} µs and PostgreSQL CPU ≤ ${CREATE_CPU_US.postgres} µs per request`,
      met: !!cpu && cpu.serverUs <= CREATE_CPU_US.server && cpu.postgresUs <= CREATE_CPU_US.postgres,
      detail: cpu ? `server ${cpu.serverUs} µs, PostgreSQL ${cpu.postgresUs} µs` : 'not run or failing (document-create)',
    },
  ]
}

export function evaluateTargets(rows: Row[], rssHighWaterMb: number): Target[] {
  // A scenario not run (its data absent at this seed: its row says why) is neither clean nor failing.
  const failing = rows.filter((row) => row.result && !clean(row)).map((row) => row.name)
  const notRun = rows.filter((row) => !row.result).map((row) => row.name)
  return [
    ...pipelineTargets(rows),
    ratio('list courses first page ≥ 35 % of baseline req/s', rows, ['courses-first', 'baseline'], (first, base) => {
      const share = (100 * first.rps) / base.rps
      return [share >= 35, `${fmt(share, 1)} % (${fmt(first.rps)} of ${fmt(base.rps)} req/s)`]
    }),
    ratio('100 pages deep p99 ≤ 1.3 × first page p99', rows, ['courses-deep', 'courses-first'], (deep, first) => [
      deep.p99 <= 1.3 * first.p99,
      `${deep.p99} ms vs ${first.p99} ms (${fmt(deep.p99 / first.p99, 2)} ×)`,
    ]),
    ratio('search p99 ≤ 3 × first page p99', rows, ['courses-search', 'courses-first'], (search, first) => [
      search.p99 <= 3 * first.p99,
      `${search.p99} ms vs ${first.p99} ms (${fmt(search.p99 / first.p99, 2)} ×)`,
    ]),
    ratio('course difficulty p99 ≤ 3 × first page p99', rows, ['course-difficulty', 'courses-first'], (difficulty, first) => [
      difficulty.p99 <= 3 * first.p99,
      `${difficulty.p99} ms vs ${first.p99} ms (${fmt(difficulty.p99 / first.p99, 2)} ×)`,
    ]),
    ...READINESS_FIRST_PAGES.map(([name, label]) =>
      ratio(`${label} p99 ≤ 3 × courses first page p99`, rows, [name, 'courses-first'], (page, first) => [
        page.p99 <= 3 * first.p99,
        `${page.p99} ms vs ${first.p99} ms (${fmt(page.p99 / first.p99, 2)} ×)`,
      ]),
    ),
    // DECISIONS §14's reads (issue 29): one person's summary within 2 × the courses first page, the fleet page within 3 ×.
    ...SEA_SERVICE_PAGES.map(([name, label, factor]) =>
      ratio(`${label} p99 ≤ ${factor} × courses first page p99`, rows, [name, 'courses-first'], (page, first) => [
        page.p99 <= factor * first.p99,
        `${page.p99} ms vs ${first.p99} ms (${fmt(page.p99 / first.p99, 2)} ×)`,
      ]),
    ),
    ...READINESS_DEEP_PAGES.map(([deepName, firstName, label]) =>
      ratio(`${label} 100 pages deep p99 ≤ 1.3 × its first page p99`, rows, [deepName, firstName], (deep, first) => [
        deep.p99 <= 1.3 * first.p99,
        `${deep.p99} ms vs ${first.p99} ms (${fmt(deep.p99 / first.p99, 2)} ×)`,
      ]),
    ),
    ratio('bulk update 1000 ids p50 ≤ 10 × 10 ids p50', rows, ['bulk-update-1000', 'bulk-update-10'], (big, small) => [
      big.p50 <= 10 * small.p50,
      `${big.p50} ms vs ${small.p50} ms (${fmt(big.p50 / Math.max(small.p50, 1), 1)} ×)`,
    ]),
    ...xapiTargets(rows),
    tailsTarget(rows),
    ratio(
      'create identity document p99 with the fleet sweep running ≤ 1.5 × without (issue 42)',
      rows,
      ['document-create-sweeping', 'document-create'],
      (sweeping, plain) => [
        sweeping.p99 <= 1.5 * plain.p99,
        `${sweeping.p99} ms vs ${plain.p99} ms (${fmt(sweeping.p99 / plain.p99, 2)} ×)`,
      ],
    ),
    {
      goal: 'zero errors and zero non-2xx in every scenario',
      met: failing.length === 0,
      detail: [
        failing.length === 0 ? 'all clean' : `failing: ${failing.join(', ')}`,
        ...(notRun.length > 0 ? [`not run: ${notRun.join(', ')}`] : []),
      ].join('; '),
    },
    { goal: `server RSS ≤ ${RSS_LIMIT_MB} MB`, met: rssHighWaterMb <= RSS_LIMIT_MB, detail: `peak (VmHWM) ${rssHighWaterMb} MB` },
  ]
}

// Issue 42's tails: p99 within 4 × p50 for reads, 5 × for writes (the bare app and the batches from one connection aside).
const WRITES = /create|patch|record|bulk|post|put/
const TAILS_ASIDE = new Set(['bare-fastify', 'xapi-post-100', 'xapi-post-1000'])

function tailsTarget(rows: Row[]): Target {
  const measured = rows.filter((row) => row.result && !TAILS_ASIDE.has(row.name))
  const over = measured.filter((row) => {
    const r = row.result!
    return r.p99 > (WRITES.test(row.name) ? 5 : 4) * Math.max(r.p50, 1)
  })
  return {
    goal: 'p99 ≤ 4 × p50 for every read scenario, ≤ 5 × for writes',
    met: measured.length > 0 && over.length === 0,
    detail:
      over.length === 0
        ? `${measured.length} scenarios within`
        : `over: ${over.map((row) => `${row.name} ${row.result!.p99} / ${row.result!.p50} ms`).join(', ')}`,
  }
}

function statusSummary(row: Row): string {
  if (!row.result) return row.note ?? ''
  const codes = Object.entries(row.result.statusCodes)
    .map(([code, count]) => `${code}×${count}`)
    .join(' ')
  return [codes, row.note].filter(Boolean).join('; ')
}

/** A Markdown table: readable in the terminal and pasted as is into docs/performance.md. */
export function renderTable(rows: Row[]): string {
  const baseline = rows.find((row) => row.name === 'baseline')?.result?.rps
  const lines = [
    '| scenario | req/s | % of baseline | p50 ms | p99 ms | server CPU µs/req | PostgreSQL CPU µs/req | MultiXacts/req | errors | non-2xx | peak RSS MB | event loop p50 / p99 / max ms | GC pauses | responses |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|',
  ]
  for (const row of rows) {
    const r = row.result
    const share = r && baseline ? `${fmt((100 * r.rps) / baseline, 1)} %` : '–'
    const cpu = row.cpu ? [row.cpu.serverUs, row.cpu.postgresUs, row.cpu.multixacts ?? '–'] : ['–', '–', '–']
    const cells = r ? [fmt(r.rps), share, r.p50, r.p99, ...cpu, r.errors, r.non2xx] : Array(9).fill('–')
    lines.push(`| ${row.title} | ${cells.join(' | ')} | ${row.rssMb} | ${loopOf(row)} | ${gcOf(row)} | ${statusSummary(row)} |`)
  }
  return lines.join('\n')
}

export function renderTargets(targets: Target[]): string {
  return targets.map((t) => `- [${t.met ? 'x' : ' '}] ${t.met ? 'met' : 'NOT met'}: ${t.goal} — ${t.detail}`).join('\n')
}

export function writeResults(file: string, data: unknown): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`)
}
