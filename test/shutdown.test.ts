import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type Db, openDatabase } from '../src/db/database.js'
import { buildTestApp, TEST_SECRET } from './app.js'
import { createOrg, nextImo } from './factories.js'
import { freeServicePort } from './free-port.js'

// The real server as `npm start` runs it (the compiled build test/global-setup.ts makes), as a child
// process on the embedded database: what an orchestrator stops with SIGTERM.
// Long enough that exiting in half of it can only be the drain ending, not the grace running out.
const GRACE_SECONDS = 30
const dataDir = mkdtempSync(join(tmpdir(), 'seaworthy-shutdown-'))
const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
})

async function startServer(graceSeconds: number, extraEnv: Record<string, string> = {}) {
  const port = await freeServicePort()
  const { DATABASE_URL: _, TEST_DATABASE_URL: __, ...env } = process.env
  const child = spawn(process.execPath, ['dist/src/server.js'], {
    env: {
      ...env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'silent',
      SHUTDOWN_GRACE_SECONDS: String(graceSeconds),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  let stdout = ''
  child.stdout!.on('data', (chunk) => {
    stdout += chunk
  })
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, at: Date.now() }))
  while (!stdout.includes('Seaworthy is running')) {
    if (child.exitCode !== null) throw new Error(`server did not start: ${stdout}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  // With workers, the primary says so before they listen.
  while (
    !(await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { child, port, stdout, exited }
}

/** A raw connection: what was received so far, and whether the server has closed it. */
function open(port: number) {
  const socket = connect(port, '127.0.0.1')
  const state = { socket, received: '', closed: false }
  socket.on('data', (chunk) => {
    state.received += chunk
  })
  socket.on('error', () => {})
  socket.on('close', () => {
    state.closed = true
  })
  return state
}

async function until(check: () => boolean, what: string, seconds = 10) {
  const deadline = Date.now() + seconds * 1000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const idleAfterOneRequest = async (port: number) => {
  const conn = open(port)
  conn.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n')
  await until(() => conn.received.includes('\r\n\r\n'), 'a health answer')
  return conn
}

function postHeaders(token: string, body: string) {
  return (
    'POST /api/v1/shared/ships HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\nContent-Type: application/json\r\n' +
    `Authorization: Bearer ${token}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`
  )
}

type Server = Awaited<ReturnType<typeof startServer>>

/**
 * Idle keep-alive connections and two POSTs whose bodies are still arriving, then SIGTERM: the idle
 * ones close at once, the POSTs are answered 201 with `Connection: close`, the process exits 0 well
 * before the grace period. Returns the created ids.
 */
async function drain(server: Server, token: string): Promise<string[]> {
  const idle = await Promise.all([1, 2, 3].map(() => idleAfterOneRequest(server.port)))
  const bodies = ['MV Drain One', 'MV Drain Two'].map((name) => JSON.stringify({ name, imoNumber: nextImo() }))
  const inFlight = bodies.map((body) => {
    const conn = open(server.port)
    conn.socket.write(postHeaders(token, body) + body.slice(0, 10))
    return conn
  })
  await new Promise((resolve) => setTimeout(resolve, 300))

  const signalled = Date.now()
  server.child.kill('SIGTERM')
  await until(() => idle.every((c) => c.closed), 'the idle connections to close', 10)
  expect(inFlight.some((c) => c.closed)).toBe(false)
  inFlight.forEach((conn, i) => {
    conn.socket.write(bodies[i].slice(10))
  })
  await until(() => inFlight.every((c) => c.closed), 'the requests in flight to be answered', 20)
  const answers = inFlight.map((c) => c.received)
  for (const answer of answers) {
    expect(answer).toMatch(/^HTTP\/1\.1 201 /)
    expect(answer.toLowerCase()).toContain('connection: close')
  }
  const { code, at } = await server.exited
  expect(code).toBe(0)
  expect((at - signalled) / 1000).toBeLessThan(GRACE_SECONDS / 2)
  return answers.map((a) => JSON.parse(a.split('\r\n\r\n')[1]).id)
}

/** Every acknowledged write is in the database. */
async function expectShips(db: Db, ids: string[]) {
  const rows = await db.selectFrom('ships').select('name').where('id', 'in', ids).orderBy('name').execute()
  expect(rows.map((r) => r.name)).toEqual(['MV Drain One', 'MV Drain Two'])
}

describe('shutdown on SIGTERM', () => {
  it('closes idle connections at once, lets requests in flight finish, keeps their writes and exits 0 long before the grace', async () => {
    const server = await startServer(GRACE_SECONDS)
    const [, email, password] = /^\s+admin\s+(\S+)\s+(\S+)$/m.exec(server.stdout)!
    const login = await fetch(`http://127.0.0.1:${server.port}/api/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
    const { access_token: token } = await login.json()
    const ids = await drain(server, token)
    const database = await openDatabase({ dataDir })
    try {
      await expectShips(database.db, ids)
    } finally {
      await database.close()
    }
  }, 240_000)

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'does the same with WORKERS=2: each worker drains, the primary exits 0',
    async () => {
      const t = await buildTestApp()
      try {
        const org = await createOrg(t.app, t.database.db)
        const server = await startServer(GRACE_SECONDS, {
          DATABASE_URL: process.env.TEST_DATABASE_URL!,
          SEAWORTHY_JWT_SECRET: TEST_SECRET,
          WORKERS: '2',
          // Its jobs would sweep every organization of the shared database (the whole suite's rows), holding
          // row locks other files wait on: what is tested here is the drain, not the sweeps.
          RUN_JOBS: '0',
        })
        await expectShips(t.database.db, await drain(server, org.admin.token))
      } finally {
        await t.app.close()
      }
    },
    240_000,
  )

  it('cuts a request that is still not done at the end of the grace period, and exits 0', async () => {
    const server = await startServer(2)
    const stalled = open(server.port)
    stalled.socket.write(
      'POST /api/v1/auth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 80\r\n\r\n{"em',
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
    const signalled = Date.now()
    server.child.kill('SIGTERM')
    const { code, at } = await server.exited
    expect(code).toBe(0)
    const seconds = (at - signalled) / 1000
    expect(seconds).toBeGreaterThanOrEqual(1.5)
    expect(seconds).toBeLessThan(15)
    await until(() => stalled.closed, 'the stalled connection to be cut', 2)
  }, 240_000)
})
