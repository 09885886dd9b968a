#!/usr/bin/env node
import './supported-node.js'
import { randomBytes } from 'node:crypto'
import { text } from 'node:stream/consumers'
import { Command, CommanderError, Option } from 'commander'
import { ConfigError, loadDatabaseConfig } from './config.js'
import { DataDirInUse, type Db, migrateToLatest, openDatabase } from './db/database.js'
import { PRODUCTS, type Product } from './db/schema.js'
import { resetPassword } from './modules/accounts/auth/auth.service.js'
import { createOrganization } from './modules/accounts/organizations/organizations.service.js'
import { seedDemo } from './modules/crew/demo/demo.service.js'

/** A mistake in the command line; `reported` when its message (and the help hint) already went to stderr. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly reported = false,
  ) {
    super(message)
  }
}

export interface CliIo {
  out: (line: string) => void
  /** Where mistakes and their hint go (standard error). */
  err?: (line: string) => void
  env?: Record<string, string | undefined>
  /** Standard input, read whole, when it is not a terminal (a pipe or a file); null when it is one. */
  stdin?: () => Promise<string | null>
}

const MIN_PASSWORD = 8

function parseProducts(raw: string): Product[] {
  const products = [
    ...new Set(
      raw
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ]
  const unknown = products.filter((p) => !(PRODUCTS as readonly string[]).includes(p))
  if (products.length === 0 || unknown.length) throw new UsageError(`--products takes a comma-separated list of: ${PRODUCTS.join(', ')}`)
  return products as Product[]
}

async function withDatabase<T>(env: Record<string, string | undefined>, work: (db: Db) => Promise<T>): Promise<T> {
  const config = loadDatabaseConfig(env)
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 })
  try {
    await migrateToLatest(database.db)
    return await work(database.db)
  } finally {
    await database.close()
  }
}

/** The first line of piped standard input, so `printf '%s' "$PASSWORD" | seaworthy …` keeps it off the command line. */
async function pipedLine(io: CliIo): Promise<string | undefined> {
  const piped = await (io.stdin ?? readStdin)()
  return piped?.split(/\r?\n/)[0] || undefined
}

const readStdin = async () => (process.stdin.isTTY ? null : text(process.stdin))

function checkedPassword(password: string, source: string): string {
  if (password.length < MIN_PASSWORD) throw new UsageError(`${source} must have at least ${MIN_PASSWORD} characters`)
  return password
}

/** The admin's password: --admin-password, else SEAWORTHY_ADMIN_PASSWORD, else the first line of piped standard input. */
async function adminPassword(option: string | undefined, io: CliIo, env: Record<string, string | undefined>): Promise<string> {
  if (option !== undefined) return checkedPassword(option, '--admin-password')
  if (env.SEAWORTHY_ADMIN_PASSWORD) return checkedPassword(env.SEAWORTHY_ADMIN_PASSWORD, 'SEAWORTHY_ADMIN_PASSWORD')
  const piped = await pipedLine(io)
  if (piped !== undefined) return checkedPassword(piped, 'The password on standard input')
  throw new UsageError('org create needs the admin password: --admin-password, SEAWORTHY_ADMIN_PASSWORD or a line on standard input')
}

function program(io: CliIo, env: Record<string, string | undefined>): Command {
  const cli = new Command('seaworthy')
    .description(
      'Operator commands of the Seaworthy service. They work on DATABASE_URL, or on the embedded data directory (DATA_DIR, default ./data) when it is not set; stop the server first when using the embedded directory.',
    )
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => (io.err ?? console.error)(s.trimEnd()) })
    .showHelpAfterError('(add --help for usage)')

  const org = cli.command('org').description('Organizations').exitOverride()
  org
    .command('create')
    .description(
      'Creates an organization and its first admin, who keeps password login when single sign-on is enforced. Prints {"organizationId","adminUserId"}.',
    )
    .exitOverride()
    .requiredOption('--name <name>', "the organization's name")
    .requiredOption('--admin-email <email>', "the first admin's e-mail")
    .option(
      '--admin-password <password>',
      'the admin password (at least 8 characters); else SEAWORTHY_ADMIN_PASSWORD, else the first line of standard input',
    )
    .addOption(new Option('--products <list>', `comma-separated: ${PRODUCTS.join(', ')}`).default(PRODUCTS.join(',')))
    .option('--domain <domain>', "the organization's domain (its single sign-on login path)")
    .action(async (options: { name: string; adminEmail: string; adminPassword?: string; products: string; domain?: string }) => {
      const products = parseProducts(options.products)
      const password = await adminPassword(options.adminPassword, io, env)
      const admin = { email: options.adminEmail, password }
      const result = await withDatabase(env, (db) =>
        createOrganization(db, { name: options.name, domain: options.domain, products, admin }),
      )
      io.out(JSON.stringify(result))
    })

  cli
    .command('migrate')
    .description('Applies pending migrations (the server and org create also do this). Prints {"applied":[…]}.')
    .exitOverride()
    .action(async () => {
      const applied = await withDatabase(env, (db) => migrateToLatest(db))
      io.out(JSON.stringify({ applied }))
    })

  cli
    .command('seed')
    .description('Creates a demo organization with one user of each role and three ships; prints the logins.')
    .exitOverride()
    .requiredOption('--demo', 'the demo organization (the only seed there is)')
    .action(async () => {
      const { organizationId, logins } = await withDatabase(env, (db) => seedDemo(db))
      io.out(JSON.stringify({ organizationId, logins }, null, 2))
    })

  const user = cli.command('user').description('Users').exitOverride()
  user
    .command('reset-password')
    .description(
      'Sets a new password for the user with this e-mail (any organization), for a lost login such as a demo one. A pending user becomes active; the e-mail\'s failed logins stop counting. Prints {"userId","email"} and, when it chose the password, "password".',
    )
    .exitOverride()
    .requiredOption('--email <email>', "the user's e-mail (any case)")
    .option('--password <password>', 'the new password (at least 8 characters); else the first line of standard input, else a random one')
    .action(async (options: { email: string; password?: string }) => {
      const given = options.password ?? (await pipedLine(io))
      const password = given === undefined ? randomBytes(12).toString('base64url') : checkedPassword(given, 'The password')
      const reset = await withDatabase(env, (db) => resetPassword(db, options.email, password))
      if (!reset) throw new UsageError(`No user has the e-mail ${options.email}`)
      io.out(JSON.stringify({ userId: reset.id, email: reset.email, ...(given === undefined && { password }) }))
    })
  return cli
}

/** Runs one command line. Help prints to `out` and returns; a usage mistake goes to `err` and throws UsageError. */
export async function runCli(argv: string[], io: CliIo): Promise<void> {
  const env = io.env ?? process.env
  try {
    await program(io, env).parseAsync(argv, { from: 'user' })
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error
    if (error.code === 'commander.helpDisplayed') return
    throw new UsageError(error.message, true)
  }
}

const invokedDirectly = process.argv[1] && /(cli\.(ts|js)|seaworthy(\.js)?)$/.test(process.argv[1])
if (invokedDirectly) {
  runCli(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
  }).catch((error) => {
    const known = error instanceof UsageError || error instanceof ConfigError || error instanceof DataDirInUse
    if (!error?.reported) console.error(known ? error.message : `seaworthy: ${error?.detail ?? error?.message ?? error}`)
    process.exit(known ? 2 : 1)
  })
}
