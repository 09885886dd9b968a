import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import fc from 'fast-check'
import { v7 as uuidv7 } from 'uuid'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { fromPglite, migrateToLatest, pgliteOptions } from '../src/db/database.js'
import { hashSecret } from '../src/modules/learning/xapi/auth.js'
import { insertCredential } from '../src/modules/learning/xapi/credentials.queries.js'
import { NASTY_JSON, nastyString, OTHER_CONTENT_TYPES, RAW_BODIES } from './nasty.js'

// npm run fuzz:xapi -- [--requests N] [--seed N]: property-based requests to the xAPI resources (hidden
// from the OpenAPI document the main fuzz run reads): valid statements bent one field at a time, stray
// parameters, agents, versions, preconditions and bodies of every kind. Fails on the first 5xx, or on
// a 4xx without xAPI's error body or version header.

const { values: args } = parseArgs({ options: { requests: { type: 'string', default: '5000' }, seed: { type: 'string' } } })
const requests = Number(args.requests)
const seed = args.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(args.seed)
const BASE = '/api/v1/learn/xapi'
const PATHS = ['/statements', '/activities/state', '/activities/profile', '/agents/profile', '/activities', '/agents', '/about']
const PARAMS = ['statementId', 'voidedStatementId', 'agent', 'verb', 'activity', 'registration', 'related_agents', 'related_activities', 'since', 'until', 'limit', 'format', 'attachments', 'ascending', 'more', 'activityId', 'stateId', 'profileId', 'method']

const validStatement = () => ({
  actor: { objectType: 'Agent', mbox: 'mailto:fuzz@example.test' },
  verb: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { 'en-US': 'completed' } },
  object: { id: 'https://courses.example.test/fuzz', definition: { name: { 'en-US': 'Fuzz' } } },
  context: { registration: '0190a000-0000-7000-8000-000000000001' },
  result: { score: { scaled: 0.5 }, duration: 'PT1M' },
})

const anyJson = fc.oneof(fc.jsonValue(), fc.constantFrom(...NASTY_JSON), nastyString)
/** A valid statement with one field (at any depth) replaced or removed. */
const bentStatement = fc
  .tuple(fc.constantFrom('actor', 'actor.mbox', 'verb', 'verb.id', 'object', 'object.id', 'object.definition', 'context', 'context.registration', 'result.score.scaled', 'result.duration', 'id', 'timestamp', 'version', 'attachments', 'extra'), fc.option(anyJson))
  .map(([path, value]) => {
    const statement: Record<string, any> = validStatement()
    const keys = path.split('.')
    let at = statement
    for (const key of keys.slice(0, -1)) at = at[key] ??= {}
    if (value === null) delete at[keys.at(-1) as string]
    else at[keys.at(-1) as string] = value
    return statement
  })
const paramValue = fc.oneof(nastyString, anyJson.map((v) => JSON.stringify(v)), fc.constantFrom('true', '0', '-1', '2026-01-01T00:00:00Z', uuidv7(), '{"mbox":"mailto:fuzz@example.test"}'))
const requestArb = fc.record({
  method: fc.constantFrom('GET', 'HEAD', 'PUT', 'POST', 'DELETE'),
  path: fc.constantFrom(...PATHS),
  params: fc.dictionary(fc.oneof(fc.constantFrom(...PARAMS), nastyString), paramValue, { maxKeys: 4 }),
  body: fc.option(fc.oneof(bentStatement, fc.array(bentStatement, { maxLength: 3 }), anyJson, fc.constantFrom(...RAW_BODIES))),
  contentType: fc.constantFrom('application/json', 'multipart/mixed; boundary=x', 'application/x-www-form-urlencoded', 'text/plain', ...OTHER_CONTENT_TYPES),
  version: fc.constantFrom('1.0.3', '1.0.0', '1.0', '0.95', '2.0.0', ''),
  precondition: fc.option(fc.record({ name: fc.constantFrom('if-match', 'if-none-match'), value: fc.oneof(fc.constant('*'), nastyString) })),
})

const dataDir = mkdtempSync(join(tmpdir(), 'seaworthy-fuzz-xapi-'))
const database = fromPglite(await PGlite.create(pgliteOptions()))
await migrateToLatest(database.db)
const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEAWORTHY_JWT_SECRET: 'fuzz-secret-fuzz-secret-fuzz-secret-0123456789' }), database, logger: false })
const orgId = uuidv7()
await database.db.insertInto('organizations').values({ id: orgId, name: 'Fuzz', domain: null, products: ['learn', 'crew'] }).execute()
const secret = 'fuzz-secret'
await insertCredential(database.db, { id: uuidv7(), organization_id: orgId, name: 'Fuzz', key: 'fuzz', secret_hash: hashSecret(secret), scopes: ['all'], created_by: null })
const authorization = `Basic ${Buffer.from(`fuzz:${secret}`).toString('base64')}`

let count = 0
let failure: string | null = null
await fc.assert(
  fc.asyncProperty(requestArb, async (r) => {
    count++
    const query = new URLSearchParams(Object.entries(r.params)).toString()
    const payload = r.body === null ? undefined : typeof r.body === 'string' || Buffer.isBuffer(r.body) ? r.body : JSON.stringify(r.body)
    const headers: Record<string, string> = { authorization, 'content-type': r.contentType }
    if (r.version) headers['x-experience-api-version'] = r.version
    if (r.precondition) headers[r.precondition.name] = r.precondition.value
    const response = await app.inject({ method: r.method, url: `${BASE}${r.path}${query ? `?${query}` : ''}`, headers, ...(payload === undefined ? {} : { payload }) })
    const status = response.statusCode
    const problem =
      status >= 500
        ? `answered ${status}`
        : response.headers['x-experience-api-version'] !== '1.0.3'
          ? 'no X-Experience-API-Version: 1.0.3'
          : status >= 400 && r.method !== 'HEAD' && !/"error":true/.test(response.body)
            ? `a ${status} without xAPI's error body`
            : null
    if (problem) failure = `${problem}: ${r.method} ${BASE}${r.path}?${query}\n  headers: ${JSON.stringify(headers)}\n  body: ${String(payload).slice(0, 2000)}\n  answer: ${response.body.slice(0, 2000)}`
    return problem === null
  }),
  { numRuns: requests, seed, endOnFailure: true },
).catch(() => {})
await app.close()
rmSync(dataDir, { recursive: true, force: true })
if (failure) {
  console.error(`XAPI FUZZ FAILURE after ${count} requests (seed ${seed}): ${failure}`)
  process.exit(1)
}
console.log(`xAPI fuzz: ${count} requests, no 5xx, every refusal in xAPI's shape (seed ${seed})`)
