import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'

export interface Server {
  url: string
  pid: number
  /** Highest VmRSS seen since the last call, in MB; sampled every 100 ms. */
  takePeakRss(): number
  /** VmHWM: the process's peak resident set size so far, in MB. */
  highWaterMark(): number
  /** Distinct errors the server logged (level error and above): what is behind a 500. */
  loggedErrors(): string[]
  stop(): Promise<void>
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

export function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) : 0
  } catch {
    return 0
  }
}

function loggedError(line: string): string | undefined {
  if (!line.startsWith('{')) return undefined
  try {
    const entry = JSON.parse(line)
    if (entry.level >= 50) return `${entry.msg}: ${entry.err?.message ?? ''}`.slice(0, 300)
  } catch {
    // not a log entry
  }
  return undefined
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}:\n${output()}`)
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not listening yet
    }
    await sleep(200)
  }
  throw new Error(`The server did not become ready within 30 s:\n${output()}`)
}

/**
 * The command run on the given CPUs (`taskset -c`, e.g. `0`), or as it is when none are given: the server
 * on one core and PostgreSQL and the load on the other stop them preempting each other (docs/performance.md).
 */
export function pinned(cpus: string | undefined, command: string[]): [string, string[]] {
  const [file, ...args] = cpus ? ['taskset', '-c', cpus, ...command] : command
  return [file, args]
}

export interface ServeOptions {
  /** Node.js options before the entry, e.g. `--cpu-prof` (bench/profile.ts). */
  nodeArgs?: string[]
  /** On top of the service's environment, e.g. `WORKERS`. */
  env?: Record<string, string>
}

/**
 * The Node.js options of `npm start` (package.json's `start`: `node <options> dist/src/server.js`), so that
 * the bench serves with the production settings docs/production.md gives (the young generation's size).
 */
export function startScriptNodeArgs(): string[] {
  const start: string = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start
  const [node, ...rest] = start.split(/\s+/)
  if (node !== 'node') throw new Error(`package.json's start script is not a node command: ${start}`)
  return rest.filter((arg) => arg.startsWith('--'))
}

/** Serves the production build as a child process, as an operator would run it (`npm start`'s options). */
export function startServer(databaseUrl: string, jwtSecret: string, entry: string, options: ServeOptions = {}): Promise<Server> {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first`)
  return serve(
    [...startScriptNodeArgs(), ...(options.nodeArgs ?? []), entry],
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      SEAWORTHY_JWT_SECRET: jwtSecret,
      // autocannon ignores `Connection: close` and keeps sending on the socket, which Node then answers
      // 503: the per-socket limit (a real client reconnects) would show up as failures of the load tool.
      MAX_REQUESTS_PER_SOCKET: '0',
      // No background jobs: the sea-service sweep a starting instance queues reads the whole fleet for
      // minutes, and its PostgreSQL CPU would count in every scenario's. No scenario needs a job.
      RUN_JOBS: '0',
      ...options.env,
    },
    '/readyz',
  )
}

/** Serves bench/bare-app.ts: Fastify with no hooks, the ceiling of /healthz on this machine. */
export function startBareServer(): Promise<Server> {
  return serve(['--import', 'tsx', 'bench/bare-app.ts'], {}, '/healthz')
}

async function serve(args: string[], env: Record<string, string>, readyPath: string): Promise<Server> {
  const port = await freePort()
  const child = spawn(...pinned(process.env.BENCH_SERVER_CPUS, [process.execPath, ...args]), {
    env: {
      ...process.env,
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const errors = new Set<string>()
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream as Readable }).on('line', (line) => {
      output = `${output}${line}\n`.slice(-4000)
      const error = loggedError(line)
      if (error) errors.add(error)
    })
  }
  const pid = child.pid as number
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    clearInterval(sampler)
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    if ((await Promise.race([exited, sleep(5000, 'timeout')])) === 'timeout') child.kill('SIGKILL')
  }
  let peakKb = 0
  const sampler = setInterval(() => {
    peakKb = Math.max(peakKb, statusKb(pid, 'VmRSS'))
  }, 100)
  try {
    await waitUntilReady(url + readyPath, child, () => output)
  } catch (error) {
    await stop()
    throw error
  }
  return {
    url,
    pid,
    takePeakRss() {
      const peak = Math.max(peakKb, statusKb(pid, 'VmRSS'))
      peakKb = 0
      return Math.round(peak / 1024)
    },
    highWaterMark: () => Math.round(statusKb(pid, 'VmHWM') / 1024),
    loggedErrors: () => [...errors],
    stop,
  }
}
