/**
 * Runs ADL's LRS conformance suite (../shared/conformance/lrs-suite, installed in the folder given)
 * against this service: a throwaway database (PGlite in a temporary folder, or DATABASE_URL), one
 * organization and one credential, the service on a free port. Fails unless every case passes.
 *
 *   tsx scripts/lrs-conformance.ts <installed suite folder> [more suite options, e.g. -g XAPI-00123]
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { v7 as uuidv7 } from 'uuid'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { migrateToLatest, openDatabase } from '../src/db/database.js'
import { createOrganization } from '../src/modules/accounts/organizations/organizations.service.js'
import { hashSecret } from '../src/modules/learning/xapi/auth.js'
import { insertCredential } from '../src/modules/learning/xapi/credentials.queries.js'

const [suite, ...suiteArgs] = process.argv.slice(2)
if (!suite) throw new Error('Usage: tsx scripts/lrs-conformance.ts <installed suite folder> [suite options]')

const dataDir = mkdtempSync(join(tmpdir(), 'seaworthy-lrs-'))
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'error',
  SEAWORTHY_JWT_SECRET: randomBytes(32).toString('hex'),
})
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir })
await migrateToLatest(database.db)
const { organizationId } = await createOrganization(database.db, {
  name: `LRS conformance ${new Date().toISOString()}`,
  products: ['learn', 'crew'],
  admin: { email: `lrs-${randomBytes(4).toString('hex')}@example.com`, password: randomBytes(12).toString('hex') },
})
const key = randomBytes(16).toString('hex')
// Hex: a base64url secret that starts with '-' reads as an option to the runner's command line.
const secret = randomBytes(32).toString('hex')
await insertCredential(database.db, {
  id: uuidv7(),
  organization_id: organizationId,
  name: 'ADL conformance suite',
  key,
  secret_hash: hashSecret(secret),
  scopes: ['all'],
  created_by: null,
})
const app = await buildApp({ config, database })
const address = await app.listen({ host: '127.0.0.1', port: 0 })
const endpoint = `${address}/api/v1/learn/xapi`
console.log(`LRS at ${endpoint} (${database.engine})`)

const runner = spawn(
  process.execPath,
  ['bin/console_runner.js', '-x', '1.0.3', '-e', endpoint, '-a', '-u', key, '-p', secret, ...suiteArgs],
  {
    cwd: suite,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
)
let output = ''
runner.stdout.on('data', (chunk: Buffer) => {
  output += chunk.toString()
  process.stdout.write(chunk)
})
await new Promise((resolve) => runner.on('close', resolve))
await app.close()
rmSync(dataDir, { recursive: true, force: true })

// The runner exits with the number of failures, which the shell reads modulo 256: read its summary instead.
const summaries = [...output.matchAll(/\{"total":(\d+),"passed":(\d+),"failed":(\d+)[,}]/g)]
const last = summaries.at(-1)
if (!last) {
  console.error('The suite printed no summary')
  process.exit(1)
}
const [, total, passed, failed] = last.map(Number)
console.log(`LRS conformance: ${passed} of ${total} passed, ${failed} failed`)
process.exit(failed === 0 && total > 0 ? 0 : 1)
