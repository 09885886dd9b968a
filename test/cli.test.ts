import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import { describe, expect, inject, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { runCli, UsageError } from '../src/cli.js'
import { ConfigError, loadConfig } from '../src/config.js'
import { DataDirInUse, openDatabase, pgliteOptions } from '../src/db/database.js'
import { client, TEST_SECRET } from './app.js'

const run = promisify(execFile)
// The compiled CLI that package.json installs as `seaworthy` (test/global-setup.ts builds it).
const packageBin: string = JSON.parse(readFileSync('package.json', 'utf8')).bin.seaworthy
const pgUrl = process.env.TEST_DATABASE_URL

/** The environment of one CLI run: the shared PostgreSQL in CI, else a fresh embedded data directory. */
function cliEnv(): Record<string, string> {
  const env: Record<string, string> = {
    DATA_DIR: mkdtempSync(join(tmpdir(), 'seaworthy-cli-')),
    SEAWORTHY_JWT_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
  }
  if (pgUrl) env.DATABASE_URL = pgUrl
  return env
}

/** The same, with the embedded directory already migrated (the suite's image): only one test needs a brand-new one. */
async function migratedEnv(): Promise<Record<string, string>> {
  const env = cliEnv()
  if (pgUrl) return env
  const image = new Blob([await readFile(inject('pgliteImage'))])
  await (await PGlite.create(join(env.DATA_DIR, 'pgdata'), { ...pgliteOptions(), loadDataDir: image })).close()
  return env
}

async function cli(args: string[], env: Record<string, string>): Promise<string[]> {
  const lines: string[] = []
  // Standard input is a terminal here: nothing is piped.
  await runCli(args, { out: (line) => lines.push(line), env, stdin: async () => null })
  return lines
}

async function login(env: Record<string, string>, email: string, password: string) {
  // Without the job queue's workers: on the shared PostgreSQL database they would start a sweep of every
  // organization of the suite, which went on (holding row locks) after this app closed.
  const config = loadConfig({ ...env, RUN_JOBS: '0' })
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  const app = await buildApp({ config, database, logger: false })
  const token = await client(app).post('/api/v1/auth/token', { email, password })
  const me = token.status === 200 ? await client(app, token.body.access_token).get('/api/v1/users/me') : token
  await app.close()
  return me
}

// A brand-new embedded database and a child process are slow on a busy machine: a wider safety net
// than the suite's, never a wait.
describe('seaworthy org create', { timeout: 300_000 }, () => {
  it('prints exactly one JSON object with the new ids, on a brand-new database, and the admin can log in', async () => {
    const env = cliEnv()
    const email = `cli-${crypto.randomUUID()}@example.test`
    const lines = await cli(['org', 'create', '--name', 'Blue Line', '--admin-email', email, '--admin-password', 'cli password 1'], env)
    expect(lines).toHaveLength(1)
    const result = JSON.parse(lines[0])
    expect(Object.keys(result)).toEqual(['organizationId', 'adminUserId'])
    const me = await login(env, email, 'cli password 1')
    expect(me.status).toBe(200)
    expect(me.body.user).toMatchObject({ id: result.adminUserId, organizationId: result.organizationId, role: 'admin', email })
    expect(me.body.organization.name).toBe('Blue Line')
  })

  it('sets the products with --products and refuses unknown ones', async () => {
    const env = await migratedEnv()
    const email = `cli-${crypto.randomUUID()}@example.test`
    await cli(
      ['org', 'create', '--name', 'Learn Only', '--admin-email', email, '--admin-password', 'cli password 2', '--products', 'learn'],
      env,
    )
    const config = loadConfig(env)
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
    const org = await database.db
      .selectFrom('users')
      .innerJoin('organizations', 'organizations.id', 'users.organization_id')
      .select('products')
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
    await database.close()
    expect(org.products).toEqual(['learn'])
    await expect(
      cli(
        ['org', 'create', '--name', 'X', '--admin-email', 'x@example.test', '--admin-password', 'long enough', '--products', 'fleet'],
        env,
      ),
    ).rejects.toThrow(UsageError)
    await expect(cli(['org', 'create', '--name', 'X'], env)).rejects.toThrow(UsageError)
  })

  it('runs as the package binary and prints only JSON on stdout', async () => {
    const env = await migratedEnv()
    const email = `bin-${crypto.randomUUID()}@example.test`
    const { stdout } = await run(
      'node',
      [packageBin, 'org', 'create', '--name', 'Bin Org', '--admin-email', email, '--admin-password', 'bin password'],
      {
        env: { ...process.env, ...env },
      },
    )
    expect(JSON.parse(stdout)).toEqual({ organizationId: expect.any(String), adminUserId: expect.any(String) })
    expect(stdout.trim().split('\n')).toHaveLength(1)
  })
})

describe.runIf(!pgUrl)('the embedded data directory', () => {
  it('refuses clearly, without touching it, while another live process holds it', async () => {
    const env = cliEnv()
    const lock = join(env.DATA_DIR, 'seaworthy.lock')
    // The holder lives until it is killed (or this process ends and closes its stdin): alive for
    // the whole check however slow the machine is.
    const holder = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] })
    try {
      await once(holder, 'spawn')
      writeFileSync(lock, String(holder.pid))
      await expect(cli(['migrate'], env)).rejects.toThrow(DataDirInUse)
      await expect(cli(['migrate'], env)).rejects.toThrow(/in use by another Seaworthy process/)
      expect(readFileSync(lock, 'utf8')).toBe(String(holder.pid))
      expect(existsSync(join(env.DATA_DIR, 'pgdata'))).toBe(false)
    } finally {
      holder.kill()
    }
  })
})

describe('the CLI without SEAWORTHY_JWT_SECRET', () => {
  it('runs org create, migrate and seed --demo (on the shared PostgreSQL in CI, with DATABASE_URL set)', async () => {
    const { SEAWORTHY_JWT_SECRET: _, ...env } = cliEnv()
    const email = `nosecret-${crypto.randomUUID()}@example.test`
    const created = await cli(['org', 'create', '--name', 'No Secret', '--admin-email', email, '--admin-password', 'cli password 3'], env)
    expect(JSON.parse(created[0])).toEqual({ organizationId: expect.any(String), adminUserId: expect.any(String) })
    expect(await cli(['migrate'], env)).toEqual([JSON.stringify({ applied: [] })])
    const demo = JSON.parse((await cli(['seed', '--demo'], env)).join('\n'))
    expect(demo.logins.map((l: { role: string }) => l.role)).toEqual(['admin', 'office_admin', 'office_employee', 'crew'])
    // Nothing was signed, so no secret was generated either.
    expect(existsSync(join(env.DATA_DIR, 'jwt-secret'))).toBe(false)

    const withSecret = { ...env, SEAWORTHY_JWT_SECRET: TEST_SECRET }
    const admin = await login(withSecret, email, 'cli password 3')
    expect(admin.body.user).toMatchObject({ id: JSON.parse(created[0]).adminUserId, role: 'admin', email })
    const crew = demo.logins[3]
    expect((await login(withSecret, crew.email, crew.password)).body.user).toMatchObject({ role: 'crew', email: crew.email })
  })

  it('goes past the configuration to the database when DATABASE_URL is set', async () => {
    // Nothing listens on this port: the failure is the connection's, not a demand for the secret.
    const env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'seaworthy-cli-')), DATABASE_URL: 'postgres://postgres@127.0.0.1:9/none' }
    const org = ['org', 'create', '--name', 'X', '--admin-email', 'x@example.test', '--admin-password', 'long enough']
    for (const args of [['migrate'], ['seed', '--demo'], org]) {
      const error = await cli(args, env).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).not.toBeInstanceOf(ConfigError)
      expect(error).toMatchObject({ code: 'ECONNREFUSED' })
    }
  })
})

describe('seaworthy --help', () => {
  it('describes every command, on stdout, and exits 0 (the package binary too)', async () => {
    const commands = [[], ['org', 'create'], ['migrate'], ['seed'], ['user', 'reset-password']]
    for (const command of commands) {
      const lines = await cli([...command, '--help'], {})
      expect(lines.join('\n')).toContain(`Usage: seaworthy ${command.length ? `${command.join(' ')} ` : ''}[options]`)
    }
    const { stdout } = await run('node', [packageBin, 'user', 'reset-password', '--help'])
    expect(stdout).toContain('--email <email>')
  })

  it('refuses an unknown command or a missing option with the problem and a pointer to --help on stderr', async () => {
    const errors: string[] = []
    const io = { out: () => {}, err: (line: string) => errors.push(line), env: {} }
    await expect(runCli(['sail'], io)).rejects.toThrow(UsageError)
    await expect(runCli(['user', 'reset-password'], io)).rejects.toThrow(UsageError)
    expect(errors).toEqual([
      "error: unknown command 'sail'",
      '(add --help for usage)',
      "error: required option '--email <email>' not specified",
      '(add --help for usage)',
    ])
  })
})

describe('the admin password of org create', () => {
  const create = (env: Record<string, string>, stdin: string | null, extra: string[] = []) => {
    const lines: string[] = []
    const email = `pw-${crypto.randomUUID()}@example.test`
    const args = ['org', 'create', '--name', 'Quiet', '--admin-email', email, ...extra]
    return runCli(args, { out: (line) => lines.push(line), env, stdin: async () => stdin }).then(() => ({ email, lines }))
  }

  it('comes from SEAWORTHY_ADMIN_PASSWORD or the first line of standard input, not only the command line', async () => {
    const env = await migratedEnv()
    const fromEnv = await create({ ...env, SEAWORTHY_ADMIN_PASSWORD: 'from the environment' }, 'ignored stdin')
    const fromStdin = await create(env, 'from standard input\nsecond line\n')
    expect((await login(env, fromEnv.email, 'from the environment')).status).toBe(200)
    expect((await login(env, fromStdin.email, 'from standard input')).status).toBe(200)
  })

  it('is required, and at least 8 characters, wherever it comes from', async () => {
    const env = await migratedEnv()
    await expect(create(env, null)).rejects.toThrow(/--admin-password, SEAWORTHY_ADMIN_PASSWORD or a line on standard input/)
    await expect(create(env, '')).rejects.toThrow(UsageError)
    await expect(create(env, 'short')).rejects.toThrow('The password on standard input must have at least 8 characters')
    await expect(create({ ...env, SEAWORTHY_ADMIN_PASSWORD: 'short' }, null)).rejects.toThrow(/^SEAWORTHY_ADMIN_PASSWORD must/)
  })

  it('is read from a pipe by the package binary', async () => {
    const env = await migratedEnv()
    const email = `pipe-${crypto.randomUUID()}@example.test`
    const child = spawn(process.execPath, [packageBin, 'org', 'create', '--name', 'Piped', '--admin-email', email], {
      env: { ...process.env, ...env },
    })
    child.stdin.end('piped password\n')
    let stdout = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    const [code] = await once(child, 'exit')
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual({ organizationId: expect.any(String), adminUserId: expect.any(String) })
    expect((await login(env, email, 'piped password')).status).toBe(200)
  })
})

describe('seaworthy user reset-password', () => {
  it('sets the password of a lost login (any case of the e-mail), or a random one it prints, and lifts its throttling', async () => {
    const env = await migratedEnv()
    const email = `Lost-${crypto.randomUUID()}@example.test`
    const created = JSON.parse(
      (await cli(['org', 'create', '--name', 'Lost', '--admin-email', email, '--admin-password', 'forgotten one'], env))[0],
    )

    const given = await cli(['user', 'reset-password', '--email', email.toUpperCase(), '--password', 'remembered now'], env)
    expect(given.map((line) => JSON.parse(line))).toEqual([{ userId: created.adminUserId, email }])
    expect((await login(env, email, 'forgotten one')).status).toBe(401)
    expect((await login(env, email, 'remembered now')).status).toBe(200)

    // Throttled after too many failures: the reset lets the owner in at once.
    const config = loadConfig(env)
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
    await database.db
      .insertInto('login_failures')
      .values(Array.from({ length: 250 }, (_, i) => ({ email_lower: email.toLowerCase(), address: `10.9.${i >> 8}.${i & 255}` })))
      .execute()
    await database.close()
    expect((await login(env, email, 'remembered now')).status).toBe(429)

    const random = JSON.parse((await cli(['user', 'reset-password', '--email', email], { ...env }))[0])
    expect(random).toEqual({ userId: created.adminUserId, email, password: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/) })
    expect((await login(env, email, random.password)).status).toBe(200)
  })

  it('says so when no user has the e-mail, and refuses a short password', async () => {
    const env = await migratedEnv()
    await expect(cli(['user', 'reset-password', '--email', 'nobody@example.test', '--password', 'long enough'], env)).rejects.toThrow(
      'No user has the e-mail nobody@example.test',
    )
    await expect(cli(['user', 'reset-password', '--email', 'nobody@example.test', '--password', 'short'], env)).rejects.toThrow(
      'The password must have at least 8 characters',
    )
  })
})
