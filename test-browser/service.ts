import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import pg from 'pg'
import { freeServicePort } from '../test/free-port.js'

const run = promisify(execFile)
const ROOT = join(import.meta.dirname, '..')
const SECRET = 'browser-test-secret-browser-test-secret-0123'

/** The PostgreSQL server to make the run's database on, and the prefix of its name (CI and developers differ). */
const PG_ADMIN_URL = process.env.BROWSER_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const DB_PREFIX = process.env.BROWSER_TEST_DB_PREFIX ?? 'seaworthy_browser'

export interface RunningService {
  baseUrl: string
  databaseUrl: string
  stop(): Promise<void>
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

async function waitReady(baseUrl: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}):\n${log()}`)
    const status = await fetch(`${baseUrl}/readyz`).then(
      (r) => r.status,
      () => 0,
    )
    if (status === 200) return
    await sleep(100)
  }
  throw new Error(`the service did not become ready within 60 s:\n${log()}`)
}

/**
 * A database of its own on PostgreSQL, an organization with both products made by the CLI, and the
 * service started as `npm start` would run it, on a free port; `overrides` add to its environment.
 */
export async function startService(
  admin: { email: string; password: string; domain: string },
  overrides: Record<string, string> = {},
): Promise<RunningService> {
  const dbName = `${DB_PREFIX}_${Date.now()}_${process.pid}`
  await adminQuery(`create database ${dbName}`)
  const databaseUrl = Object.assign(new URL(PG_ADMIN_URL), { pathname: `/${dbName}` }).toString()
  const port = await freeServicePort()
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    SEAWORTHY_JWT_SECRET: SECRET,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'seaworthy-browser-')),
    LOG_LEVEL: 'warn',
    // The webhook test's receiver is a plain http server on loopback, which the service refuses by default.
    WEBHOOK_ALLOW_HTTP: '1',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    ...overrides,
  }
  const cli = join(ROOT, 'src', 'cli.ts')
  const orgArgs = ['org', 'create', '--name', 'Browser Line', '--admin-email', admin.email, '--admin-password', admin.password]
  await run(process.execPath, ['--import', 'tsx', cli, ...orgArgs, '--products', 'learn,crew', '--domain', admin.domain], {
    env,
    cwd: ROOT,
  })

  let output = ''
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'server.ts')], { env, cwd: ROOT })
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const baseUrl = `http://127.0.0.1:${port}`
  await waitReady(baseUrl, child, () => output)

  return {
    baseUrl,
    databaseUrl,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        await new Promise((resolve) => child.once('exit', resolve))
      }
      await adminQuery(`drop database if exists ${dbName} with (force)`)
    },
  }
}
