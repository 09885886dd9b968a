#!/usr/bin/env node
import { parseArgs } from 'node:util'
import { ConfigError, loadDatabaseConfig } from './config.js'
import { DataDirInUse, migrateToLatest, openDatabase } from './db/database.js'
import { PRODUCTS, type Product } from './db/schema.js'
import { seedDemo } from './modules/organizations/demo.service.js'
import { createOrganization } from './modules/organizations/organizations.service.js'

const USAGE = `Usage:
  seaworthy org create --name <name> --admin-email <email> --admin-password <password> [--products learn,crew] [--domain <domain>]
  seaworthy migrate
  seaworthy seed --demo`

export class UsageError extends Error {}

export interface CliIo {
  out: (line: string) => void
  env?: Record<string, string | undefined>
}

function parseProducts(raw: string | undefined): Product[] {
  if (raw === undefined) return [...PRODUCTS]
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

async function withDatabase<T>(
  env: Record<string, string | undefined>,
  work: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>,
): Promise<T> {
  const config = loadDatabaseConfig(env)
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 2,
  })
  try {
    await migrateToLatest(database.db)
    return await work(database.db)
  } finally {
    await database.close()
  }
}

export async function runCli(argv: string[], io: CliIo): Promise<void> {
  const env = io.env ?? process.env
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      products: { type: 'string' },
      domain: { type: 'string' },
      demo: { type: 'boolean' },
    },
  })
  const command = positionals.join(' ')
  if (command === 'org create') {
    const { name, 'admin-email': email, 'admin-password': password } = values
    if (!name || !email || !password) throw new UsageError('org create needs --name, --admin-email and --admin-password')
    if (password.length < 8) throw new UsageError('--admin-password must have at least 8 characters')
    const products = parseProducts(values.products)
    const result = await withDatabase(env, (db) =>
      createOrganization(db, {
        name,
        domain: values.domain,
        products,
        admin: { email, password },
      }),
    )
    io.out(JSON.stringify(result))
  } else if (command === 'migrate') {
    const applied = await withDatabase(env, (db) => migrateToLatest(db))
    io.out(JSON.stringify({ applied }))
  } else if (command === 'seed' && values.demo) {
    const demo = await withDatabase(env, (db) => seedDemo(db))
    io.out(JSON.stringify(demo, null, 2))
  } else {
    throw new UsageError(USAGE)
  }
}

const invokedDirectly = process.argv[1] && /(cli\.(ts|js)|seaworthy(\.js)?)$/.test(process.argv[1])
if (invokedDirectly) {
  runCli(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
  }).catch((error) => {
    const known =
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof DataDirInUse ||
      error?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
    console.error(known ? error.message : `seaworthy: ${error?.detail ?? error?.message ?? error}`)
    process.exit(known ? 2 : 1)
  })
}
