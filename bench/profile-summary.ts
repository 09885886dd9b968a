// Reads a V8 CPU profile (`node --cpu-prof`) of the served build and splits the samples of a time window
// (the measured load) by layer and by function. A sample of a native frame without a script (JSON.parse,
// a regex) counts for the nearest caller that has one, so `JSON.stringify` under fast-json-stringify is
// serialization, and under the pg driver is the pg protocol.

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
}
interface ProfileNode {
  id: number
  callFrame: CallFrame
  children?: number[]
}
export interface CpuProfile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples: number[]
  timeDeltas: number[]
}

export interface Split {
  name: string
  /** µs of CPU per request over the window. */
  usPerRequest: number
  /** Share of the busy (non-idle) samples. */
  percent: number
}

export interface ProfileSummary {
  /** Share of the window the main thread was idle (waiting on PostgreSQL or the network). */
  idlePercent: number
  busyUsPerRequest: number
  layers: Split[]
  functions: Split[]
}

// First match wins: specific files before the folders that hold them.
const LAYERS: [string, RegExp][] = [
  ['routing', /node_modules\/(find-my-way|fastify\/lib\/(route|handle-request|four-oh-four))/],
  [
    'validation',
    /node_modules\/(ajv|ajv-formats|fast-uri)\/|dist\/src\/lib\/(request-validation|input-hygiene|validation|declared-types)\.js/,
  ],
  ['body parsing', /node_modules\/(secure-json-parse|fastify\/lib\/content-type-parser)/],
  ['serialization', /node_modules\/(fast-json-stringify|fastify\/lib\/(reply|error-serializer|error-handler))|dist\/src\/lib\/errors\.js/],
  ['logging', /node_modules\/(pino|sonic-boom|pino-std-serializers|thread-stream|on-exit-leak-free)\/|dist\/src\/lib\/logging\.js/],
  ['metrics', /node_modules\/prom-client\/|dist\/src\/lib\/metrics\.js|dist\/src\/modules\/metrics\//],
  [
    'hooks',
    /node_modules\/(fastify\/lib\/hooks|@fastify\/(compress|cors|accept-negotiator|proxy-addr)|helmet|jose|vary|mime-db)|dist\/src\/lib\/(auth|actor-cache|access|security-headers|request-id|idempotency|client-address|http-server|http-errors)\.js/,
  ],
  [
    'pg protocol',
    /node_modules\/(pg|pg-protocol|pg-pool|pg-types|pg-int8|postgres-array|postgres-date|postgres-interval|postgres-bytea|pg-connection-string|buffer-writer|packet-reader)\//,
  ],
  ['query building', /node_modules\/kysely\/|dist\/src\/db\/|\.queries\.js/],
  ['service', /dist\/src\/modules\//],
  [
    'fastify (other)',
    /node_modules\/(fastify|avvio|light-my-request|@fastify|fastify-plugin|toad-cache|rfdc|process-warning|abstract-logging)/,
  ],
  ['Node.js http and net', /^node:/],
]

function layerOf(url: string): string | undefined {
  if (!url) return undefined
  for (const [name, pattern] of LAYERS) if (pattern.test(url)) return name
  return 'other'
}

const SPECIAL: Record<string, string> = {
  '(garbage collector)': 'garbage collection',
  '(program)': 'V8 and native (program)',
  '(idle)': 'idle',
  '(root)': 'V8 and native (program)',
}

const shortUrl = (url: string) =>
  url
    .replace(/^.*node_modules\//, '')
    .replace(/^.*\/dist\/src\//, 'src/')
    .replace(/^file:\/\//, '')

/** Samples between `fromUs` and `toUs` after the profile's start (µs), split by layer and by function. */
export function summarizeProfile(profile: CpuProfile, window: { fromUs: number; toUs: number }, requests: number): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const layerCache = new Map<number, string>()
  const layer = (id: number): string => {
    const cached = layerCache.get(id)
    if (cached) return cached
    const frame = (byId.get(id) as ProfileNode).callFrame
    const special = SPECIAL[frame.functionName]
    const up = parent.get(id)
    const found = special ?? layerOf(frame.url) ?? (up === undefined ? 'V8 and native (program)' : layer(up))
    layerCache.set(id, found)
    return found
  }
  const layers = new Map<string, number>()
  const functions = new Map<string, number>()
  let t = 0
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]
    if (t < window.fromUs || t > window.toUs) continue
    const us = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i]
    const id = profile.samples[i]
    const name = layer(id)
    layers.set(name, (layers.get(name) ?? 0) + us)
    const frame = (byId.get(id) as ProfileNode).callFrame
    if (name !== 'idle') {
      const key = `${frame.functionName || '(anonymous)'} ${frame.url ? `${shortUrl(frame.url)}:${frame.lineNumber + 1}` : `[${name}]`}`
      functions.set(key, (functions.get(key) ?? 0) + us)
    }
  }
  const idle = layers.get('idle') ?? 0
  layers.delete('idle')
  const busy = [...layers.values()].reduce((a, b) => a + b, 0)
  const split = (entries: Map<string, number>, limit: number): Split[] =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, us]) => ({
        name,
        usPerRequest: Math.round(us / Math.max(requests, 1)),
        percent: Math.round((1000 * us) / Math.max(busy, 1)) / 10,
      }))
  return {
    idlePercent: Math.round((1000 * idle) / Math.max(idle + busy, 1)) / 10,
    busyUsPerRequest: Math.round(busy / Math.max(requests, 1)),
    layers: split(layers, 20),
    functions: split(functions, 12),
  }
}
