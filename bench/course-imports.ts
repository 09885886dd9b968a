// `npm run bench:imports`: course package imports, end to end in one process (upload, finalize, the import
// job, storage): the multi-AU cmi5 fixture (8 AUs, 4.2 MB expanded) and a 1,000-AU cmi5.xml. Reports the
// seconds from the import request to `complete` (median of the rounds) and the process's peak RSS.
import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { fromPostgres, migrateToLatest } from '../src/db/database.js'
import { createTokens } from '../src/lib/auth.js'
import { createOrganization } from '../src/modules/accounts/organizations/organizations.service.js'
import { writeResults } from './report.js'

const env = process.env
const DATABASE_URL = env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/seaworthy_bench'
const ROUNDS = Number(env.BENCH_ROUNDS || 5)
const RESULTS = env.BENCH_RESULTS || 'bench/results/course-imports.json'
const SECRET = 'bench-secret-bench-secret-bench-secret-0123'

function cmi5WithAus(count: number): string {
  const aus = Array.from(
    { length: count },
    (_, n) => `<au id="https://example.com/bench/au/${n}"><title><langstring>AU ${n}</langstring></title>
    <description><langstring>AU ${n}</langstring></description><url>https://content.example.com/au/${n}.html</url></au>`,
  )
  return `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="https://example.com/bench"><title><langstring>Bench</langstring></title><description><langstring>Bench</langstring></description></course>
  ${aus.join('\n  ')}
</courseStructure>`
}

async function main(): Promise<void> {
  const database = fromPostgres(DATABASE_URL, 10)
  await migrateToLatest(database.db)
  const config = loadConfig({
    DATABASE_URL,
    SEAWORTHY_JWT_SECRET: SECRET,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'seaworthy-bench-')),
    LOG_LEVEL: 'warn',
    RUN_JOBS: '1',
  })
  const app = await buildApp({ config, database, jobs: { pollingIntervalSeconds: 0.5 } })
  await app.ready()
  const suffix = Date.now().toString(36)
  const { organizationId, adminUserId } = await createOrganization(database.db, {
    name: `Import bench ${suffix}`,
    domain: null,
    products: ['learn'],
    admin: { email: `bench-${suffix}@example.test`, password: 'bench password 1234', firstName: 'Bench', lastName: 'Admin' },
  })
  const { token } = await createTokens(SECRET, 3600).issue({
    sub: adminUserId,
    org: organizationId,
    role: 'admin',
    products: ['learn'],
    sid: randomUUID(),
  })
  const call = async (method: 'GET' | 'POST', url: string, body?: object) =>
    (await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(body ? { payload: body } : {}) })).json()

  async function importOnce(content: Buffer, mime: string): Promise<number> {
    const intent = await call('POST', '/api/v1/shared/uploads/intent', {
      kind: 'course_package',
      mime,
      size: content.length,
      filename: 'bench',
    })
    const form = new FormData()
    for (const [name, value] of Object.entries(intent.presignedPost.fields as Record<string, string>)) form.append(name, value)
    form.append('file', new Blob([new Uint8Array(content)]))
    const request = new Request('http://localhost/', { method: 'POST', body: form })
    const target = new URL(intent.presignedPost.url)
    await app.inject({
      method: 'POST',
      url: target.pathname,
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type')! },
    })
    await call('POST', `/api/v1/shared/uploads/${intent.uploadId}/finalize`)
    const started = performance.now()
    let job = await call('POST', '/api/v1/learn/course-imports', { uploadId: intent.uploadId })
    while (job.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 20))
      job = await call('GET', `/api/v1/learn/course-imports/${job.id}`)
    }
    if (job.status !== 'complete') throw new Error(`import failed: ${JSON.stringify(job.errors)}`)
    return (performance.now() - started) / 1000
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
  const fixture = await readFile(join(import.meta.dirname, '../../shared/fixtures/cmi5/multi_au_framed.zip'))
  const thousand = Buffer.from(cmi5WithAus(1000))
  const results: Record<string, unknown> = {}
  for (const [name, content, mime] of [
    ['multi_au_framed.zip', fixture, 'application/zip'],
    ['cmi5.xml with 1,000 AUs', thousand, 'text/xml'],
  ] as const) {
    const seconds: number[] = []
    for (let round = 0; round < ROUNDS; round++) seconds.push(await importOnce(content, mime))
    results[name] = {
      bytes: content.length,
      medianSeconds: Number(median(seconds).toFixed(3)),
      seconds: seconds.map((s) => Number(s.toFixed(3))),
    }
  }
  results.peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024)
  console.log(JSON.stringify(results, null, 2))
  writeResults(RESULTS, results)
  await app.close()
}

await main()
