import { buildApp } from './app.js'
import { ConfigError, loadConfig } from './config.js'
import { DataDirInUse, migrateToLatest, openDatabase } from './db/database.js'
import { hasOrganizations, seedDemo } from './modules/organizations/demo.service.js'

async function main(): Promise<void> {
  const config = loadConfig()
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
  })
  await migrateToLatest(database.db)
  const app = await buildApp({ config, database })

  // A brand-new embedded install gets a demo organization so the first login needs no extra step.
  if (database.engine === 'pglite' && !(await hasOrganizations(database.db))) {
    const demo = await seedDemo(database.db)
    const lines = demo.logins.map((l) => `  ${l.role.padEnd(16)} ${l.email}  ${l.password}`)
    console.log(`First start: created a demo organization. Log in with POST /api/v1/auth/token as:\n${lines.join('\n')}`)
  } else if (!(await hasOrganizations(database.db))) {
    console.log('No organization yet: create one with  npx seaworthy org create --name <name> --admin-email <e> --admin-password <p>')
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      )
    })
  }
  await app.listen({ host: config.host, port: config.port })
  console.log(`Seaworthy is running on http://${config.host}:${config.port} (API reference: /docs)`)
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirInUse) {
    console.error(error.message)
  } else {
    console.error('Seaworthy could not start:', error instanceof Error ? error.message : error)
  }
  process.exit(1)
})
