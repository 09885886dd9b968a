// Runs one scenario with autocannon and prints its figures as one JSON line. It runs in its own
// process so that generating load does not share an event loop with the harness.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'

export interface LoadRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT'
  path: string
  /** JSON text; every `{{uuid}}` becomes a fresh UUID on each request. */
  body?: string
  /** On top of the run's headers (an LRS credential, a launch session's own credential). */
  headers?: Record<string, string>
}

export interface LoadSpec {
  url: string
  connections: number
  duration: number
  headers: Record<string, string>
  requests: LoadRequest[]
  /** Requests per second over all connections; absent: as fast as the server answers. */
  overallRate?: number
}

export interface LoadResult {
  requests: number
  rps: number
  p50: number
  p99: number
  errors: number
  timeouts: number
  non2xx: number
  statusCodes: Record<string, number>
}

const FRESH = /\{\{uuid\}\}/g

function run(spec: LoadSpec): Promise<LoadResult> {
  // One counter across all connections walks the pool, so concurrent requests touch different rows.
  let next = 0
  const setupRequest = (request: any) => {
    const item = spec.requests[next++ % spec.requests.length]
    request.method = item.method
    request.path = item.path
    request.body = item.body?.replace(FRESH, () => randomUUID())
    // Fresh headers each time: autocannon keeps the previous request's, Content-Length included, which
    // would make a GET after a POST announce a body it does not send.
    request.headers = { ...spec.headers, ...item.headers, ...(item.body ? { 'content-type': 'application/json' } : {}) }
    return request
  }
  // Each response's time as autocannon measures it (fractions of a millisecond): its own percentiles are of
  // whole milliseconds, too coarse for a median of 3 ms to bound a p99 by a factor.
  const times: number[] = []
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: spec.duration,
        ...(spec.overallRate ? { overallRate: spec.overallRate } : {}),
        headers: spec.headers,
        // Latencies of failed requests count too: a fast 404 must not look like a fast page.
        excludeErrorStats: false,
        requests: [{ setupRequest }],
      },
      (error: Error | null, result: any) => {
        if (error) return reject(error)
        resolve({
          requests: result.requests.total,
          rps: result.requests.average,
          p50: percentile(times, 0.5) ?? result.latency.p50,
          p99: percentile(times, 0.99) ?? result.latency.p99,
          errors: result.errors,
          timeouts: result.timeouts,
          non2xx: result.non2xx,
          statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]: [string, any]) => [code, s.count])),
        })
      },
    )
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => times.push(responseTime))
  })
}

/** The nearest-rank percentile of `values` in ms, to 0.1 ms; undefined when there are none. */
function percentile(values: number[], fraction: number): number | undefined {
  if (values.length === 0) return undefined
  const sorted = Float64Array.from(values).sort()
  return Math.round(sorted[Math.ceil(fraction * sorted.length) - 1] * 10) / 10
}

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8')) as LoadSpec
run(spec).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
