import './supported-node.js'
import cluster from 'node:cluster'
import { resolve } from 'node:path'
import { pino } from 'pino'
import { buildApp } from './app.js'
import { type Config, ConfigError, loadConfig } from './config.js'
import { buildContentApp } from './content-app.js'
import { type Database, DataDirInUse, migrateToLatest, openDatabase } from './db/database.js'
import { onShutdownSignal } from './lib/shutdown.js'
import { createStorage } from './lib/storage.js'
import { hasOrganizations, seedDemo } from './modules/crew/demo/demo.service.js'
import { seedDemoCourse } from './modules/learning/packages/demo-course.js'
import { PACKAGE_READERS } from './modules/learning/standards/index.js'

const STOP_MARGIN_SECONDS = 5

const openFor = (config: Config) =>
  openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    connectTimeoutMs: config.dbConnectTimeoutMs,
  })

/** Migrations and the first-start help run once, before any process serves requests. */
async function prepare(config: Config, database: Database): Promise<void> {
  await migrateToLatest(database.db)
  if (await hasOrganizations(database.db)) return
  // A brand-new embedded install gets a demo organization so the first login needs no extra step, and a
  // course its crew member can take (built by `prepare` from demo-course/ into dist/demo-course.zip).
  if (database.engine === 'pglite') {
    const demo = await seedDemo(database.db)
    const deps = { db: database.db, storage: createStorage(config), config, log: pino({ level: config.logLevel }), readers: PACKAGE_READERS }
    const course = await seedDemoCourse(deps, demo, resolve('dist', 'demo-course.zip'))
    const lines = demo.logins.map((l) => `  ${l.role.padEnd(16)} ${l.email}  ${l.password}`)
    console.log(`First start: created a demo organization. Sign in at /console (or POST /api/v1/auth/token) as:\n${lines.join('\n')}`)
    if (course) console.log('The crew member has a course to take: Muster list and emergency signals (My training).')
  } else {
    console.log('No organization yet: create one with  npx seaworthy org create --name <name> --admin-email <e> --admin-password <p>')
  }
}

async function serve(config: Config, database: Database): Promise<void> {
  const app = await buildApp({ config, database })
  const content = await buildContentApp({ config })
  // The app cuts what is left at the grace period (shutdown.ts); the deadline only catches a hang after that.
  onShutdownSignal(async () => void (await Promise.all([app.close(), content.close()])), config.shutdownGraceSeconds + STOP_MARGIN_SECONDS)
  await app.listen({ host: config.host, port: config.port })
  // Package content on its own origin (DECISIONS §13.3): PORT + 1, or behind the proxy that CONTENT_ORIGIN names.
  await content.listen({ host: config.host, port: config.contentPort })
}

/**
 * WORKERS > 1 (PostgreSQL only): worker processes share the port; one that dies is replaced. On a
 * signal each worker drains like a single server; the primary exits when they all have.
 */
function supervise(config: Config): void {
  let stopping = false
  for (let i = 0; i < config.workers; i++) cluster.fork()
  cluster.on('exit', () => {
    if (!stopping) cluster.fork()
  })
  const workers = () => Object.values(cluster.workers ?? {}).filter((w) => w !== undefined)
  onShutdownSignal(
    async () => {
      stopping = true
      const exited = workers().map((worker) => new Promise((resolve) => worker.once('exit', resolve)))
      for (const worker of workers()) worker.process.kill('SIGTERM')
      await Promise.all(exited)
    },
    config.shutdownGraceSeconds + 2 * STOP_MARGIN_SECONDS,
  )
}

async function main(): Promise<void> {
  const config = loadConfig()
  if (cluster.isWorker) return serve(config, await openFor(config))
  const database = await openFor(config)
  try {
    await prepare(config, database)
  } catch (error) {
    await database.close()
    throw error
  }
  // One process serves on the database it prepared (opening PGlite again would cost seconds of the first start).
  if (config.workers === 1) {
    await serve(config, database)
  } else {
    await database.close()
    supervise(config)
  }
  console.log(
    `Seaworthy is running on http://${config.host}:${config.port} (console: /console, API reference: /docs; course content: ${config.contentOrigin})`,
  )
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirInUse) {
    console.error(error.message)
  } else {
    console.error('Seaworthy could not start:', error instanceof Error ? error.message : error)
  }
  process.exit(1)
})
