// The server's event loop and garbage collector over a scenario's load, from its own /metrics (prom-client's
// default metrics): the event-loop delay percentiles (perf_hooks.monitorEventLoopDelay, whose histogram
// prom-client resets at every scrape, so a scrape before the load starts the window) and the GC pauses
// (nodejs_gc_duration_seconds, cumulative: the difference over the window).

export interface Runtime {
  /** Event-loop delay over the load, ms (beyond the 10 ms sampling interval). */
  loopP50Ms: number
  loopP99Ms: number
  loopMaxMs: number
  /** GC pauses over the load: how many, their total, and the major (mark-sweep-compact) ones' total, ms. */
  gcPauses: number
  gcMs: number
  gcMajorMs: number
}

type Scrape = Map<string, number>

async function scrape(url: string): Promise<Scrape> {
  const text = await (await fetch(`${url}/metrics`)).text()
  const values: Scrape = new Map()
  for (const line of text.split('\n')) {
    const match = /^(nodejs_eventloop_lag_(?:p50|p99|max)_seconds|nodejs_gc_duration_seconds_(?:sum|count))(\{[^}]*\})? (\S+)$/.exec(line)
    if (match) values.set(`${match[1]}${match[2] ?? ''}`, Number(match[3]))
  }
  return values
}

const sumOf = (s: Scrape, prefix: string, kind?: string) =>
  [...s].filter(([key]) => key.startsWith(prefix) && (!kind || key.includes(`kind="${kind}"`))).reduce((total, [, v]) => total + v, 0)

const ms = (seconds: number) => Math.round(seconds * 10_000) / 10
// prom-client samples the loop every 10 ms (its eventLoopMonitoringPrecision), and the histogram holds the
// time between samples: an idle loop reads 10 ms. The delay is what exceeds it.
const SAMPLING_MS = 10
const delay = (seconds: number | undefined) => Math.max(0, Math.round((ms(seconds ?? 0) - SAMPLING_MS) * 10) / 10)

/** Starts the window (a scrape resets the loop histogram); the returned function ends it. */
export async function measureRuntime(url: string): Promise<() => Promise<Runtime | undefined>> {
  const before = await scrape(url).catch(() => undefined)
  return async () => {
    const after = await scrape(url).catch(() => undefined)
    if (!before?.has('nodejs_eventloop_lag_p99_seconds') || !after) return undefined
    const diff = (prefix: string, kind?: string) => sumOf(after, prefix, kind) - sumOf(before, prefix, kind)
    return {
      loopP50Ms: delay(after.get('nodejs_eventloop_lag_p50_seconds')),
      loopP99Ms: delay(after.get('nodejs_eventloop_lag_p99_seconds')),
      loopMaxMs: delay(after.get('nodejs_eventloop_lag_max_seconds')),
      gcPauses: Math.round(diff('nodejs_gc_duration_seconds_count')),
      gcMs: ms(diff('nodejs_gc_duration_seconds_sum')),
      gcMajorMs: ms(diff('nodejs_gc_duration_seconds_sum', 'major')),
    }
  }
}
