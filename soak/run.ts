// `npm run soak [-- --minutes 10 --scale 0.01]`: the production build under a steady mixed load at half
// the capacity measured just before, for ten minutes, with the server's RSS sampled every few seconds.
// Not part of CI. Exits 0 when it ran; the verdict on memory is in the printed table.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { apiOf, prepareBench } from '../bench/harness.js'
import type { LoadRequest, LoadResult, LoadSpec } from '../bench/load.js'
import { writeResults } from '../bench/report.js'
import { runLoad } from '../bench/run-load.js'
import { scenarios } from '../bench/scenarios.js'
import { startServer, statusKb } from '../bench/server.js'
import { PrivatePostgres } from '../test/private-postgres.js'

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    scale: { type: 'string', default: '0.01' },
    'sample-seconds': { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
  },
})
const settings = {
  minutes: Number(args.minutes),
  scale: Number(args.scale),
  sampleSeconds: Number(args['sample-seconds']),
  connections: Number(args.connections),
}
/** Reads and writes of the benchmark, interleaved: one request of each in turn. */
const MIX = [
  'courses-first',
  'courses-search',
  'assignment-get',
  'assignments-by-ship',
  'review-queue',
  'document-create',
  'assignment-patch',
  'attempt-record',
]
const CAPACITY_SECONDS = 20
const RESULTS = 'bench/results/soak-latest.json'
const workDir = mkdtempSync(join(tmpdir(), 'seaworthy-soak-'))

interface RssSample {
  second: number
  mb: number
  /** One first-page course list timed beside the load: is the service slowing down? */
  probeMs: number
}

function interleave(lists: LoadRequest[][]): LoadRequest[] {
  const longest = Math.max(...lists.map((list) => list.length))
  return Array.from({ length: longest * lists.length }, (_, k) => {
    const list = lists[k % lists.length]
    return list[Math.floor(k / lists.length) % list.length]
  })
}

/** Least-squares slope of RSS over time, in MB per minute. */
function slope(samples: RssSample[]): number {
  const n = samples.length
  const mx = samples.reduce((s, p) => s + p.second, 0) / n
  const my = samples.reduce((s, p) => s + p.mb, 0) / n
  const sxy = samples.reduce((s, p) => s + (p.second - mx) * (p.mb - my), 0)
  const sxx = samples.reduce((s, p) => s + (p.second - mx) ** 2, 0)
  return sxx ? (sxy / sxx) * 60 : 0
}

function table(samples: RssSample[]): string {
  const rows = [
    '| minute | RSS MB at the mark | min MB in the minute before | max MB in the minute before | probe ms (median of the minute) |',
    '|--:|--:|--:|--:|--:|',
  ]
  for (let minute = 0; minute <= settings.minutes; minute++) {
    const mark = samples.filter((s) => s.second <= minute * 60).at(-1)
    const window = samples.filter((s) => s.second > (minute - 1) * 60 && s.second <= minute * 60)
    const mbs = window.map((s) => s.mb)
    const probes = window.map((s) => s.probeMs).sort((a, b) => a - b)
    const cells = mbs.length ? [Math.min(...mbs), Math.max(...mbs), probes[Math.floor(probes.length / 2)]] : ['–', '–', '–']
    if (mark) rows.push(`| ${minute} | ${mark.mb} | ${cells.join(' | ')} |`)
  }
  return rows.join('\n')
}

async function main(): Promise<void> {
  for (const [name, value] of Object.entries(settings)) if (!(value > 0)) throw new Error(`--${name} must be a positive number`)
  const external = process.env.SOAK_DATABASE_URL
  const pg = external ? null : await PrivatePostgres.create()
  try {
    await pg?.start()
    const url = external ?? `${pg!.url.replace(/\/postgres$/, '')}/seaworthy_soak`
    // The soak's mix has no LRS scenario: no xAPI statements.
    const { fixtures, secret, headers } = await prepareBench(url, settings.scale, 0)
    const server = await startServer(url, secret, process.env.BENCH_SERVER || 'dist/src/server.js')
    try {
      const api = apiOf(server.url, headers)
      const chosen = scenarios(fixtures).filter((s) => MIX.includes(s.name))
      const requests = interleave(await Promise.all(chosen.map((s) => s.prepare(api))))
      const spec = (duration: number, overallRate?: number): LoadSpec => ({
        url: server.url,
        connections: settings.connections,
        duration,
        headers,
        requests,
        overallRate,
      })

      const capacity = await runLoad(spec(CAPACITY_SECONDS), 'capacity', workDir)
      const rate = Math.max(1, Math.floor(capacity.rps / 2))
      console.log(
        `Capacity of the mix: ${capacity.rps.toFixed(0)} req/s (p99 ${capacity.p99} ms); soaking at ${rate} req/s for ${settings.minutes} min`,
      )

      const started = Date.now()
      const samples: RssSample[] = []
      const sample = async () => {
        const probeStart = Date.now()
        await api('/api/v1/courses/?limit=10')
        const probeMs = Date.now() - probeStart
        samples.push({ second: Math.round((Date.now() - started) / 1000), mb: Math.round(statusKb(server.pid, 'VmRSS') / 1024), probeMs })
      }
      await sample()
      let running = true
      const sampler = (async () => {
        while (running) {
          await sleep(settings.sampleSeconds * 1000)
          if (running) await sample()
        }
      })()
      let soak: LoadResult
      try {
        soak = await runLoad(spec(settings.minutes * 60, rate), 'soak', workDir)
      } finally {
        running = false
        await sampler
      }
      await sample()

      const half = samples.filter((s) => s.second >= (settings.minutes * 60) / 2)
      const summary = {
        // autocannon's latencies under a fixed rate are not comparable (it pads them); the probe column is.
        requests: soak.requests,
        rps: Math.round(soak.rps),
        statusCodes: soak.statusCodes,
        errors: soak.errors,
        timeouts: soak.timeouts,
        non2xx: soak.non2xx,
        rssStartMb: samples[0].mb,
        rssEndMb: samples[samples.length - 1].mb,
        rssMaxMb: Math.max(...samples.map((s) => s.mb)),
        slopeMbPerMinute: Number(slope(samples).toFixed(2)),
        slopeSecondHalfMbPerMinute: Number(slope(half).toFixed(2)),
        serverErrors: server.loggedErrors(),
      }
      console.log(`\n${table(samples)}\n`)
      console.log(JSON.stringify(summary, null, 2))
      writeResults(RESULTS, { startedAt: new Date(started).toISOString(), settings, mix: MIX, capacity, rate, summary, samples })
      console.log(`Wrote ${RESULTS}`)
    } finally {
      await server.stop()
    }
  } finally {
    await pg?.destroy()
  }
}

main()
  .catch((error) => {
    console.error('The soak could not run:', error instanceof Error ? error.message : error)
    process.exitCode = 1
  })
  .finally(() => rmSync(workDir, { recursive: true, force: true }))
