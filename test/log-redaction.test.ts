import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildApp } from '../src/app.js'
import type { Database } from '../src/db/database.js'
import { redactUrl } from '../src/lib/logging.js'
import { PNG_3X2, pathOf, uploadFile } from './fixtures/uploads.js'
import { client, testConfig, testDatabase } from './app.js'
import { createOrg } from './factories.js'

const lines: string[] = []
let app: App
let database: Database
beforeAll(async () => {
  database = await testDatabase()
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  app = await buildApp({ config: testConfig(), database, logger: { level: 'info', stream } })
  await app.ready()
})
afterAll(() => app.close())

describe('request logs', () => {
  it('never carry the signature of a signed download link', async () => {
    const org = await createOrg(app, database.db)
    const { finalized } = await uploadFile(app, org.crew.api, PNG_3X2, 'image/png', 'passport.png')
    const downloadUrl: string = finalized.body.downloadUrl
    const signature = new URL(downloadUrl).searchParams.get('signature')
    expect(signature).toMatch(/^[A-Za-z0-9_-]{20,}$/)

    const download = await client(app).get(pathOf(downloadUrl))
    expect(download.status).toBe(200)

    const logged = lines.join('')
    expect(logged).not.toContain(signature)
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.req?.url?.startsWith('/api/v1/shared/uploads/object'))
    expect(requests).toHaveLength(1)
    expect(requests[0].req.url).toContain('signature=[redacted]')
    expect(requests[0].req.url).toContain('key=')
  })

  it('redact every credential-like query parameter and keep the rest', () => {
    expect(redactUrl('/api/v1/courses/?search=deck&limit=5')).toBe('/api/v1/courses/?search=deck&limit=5')
    expect(redactUrl('/x?X-Amz-Signature=abc&X-Amz-Credential=id%2F1&x-amz-security-token=t&a=1')).toBe(
      '/x?X-Amz-Signature=[redacted]&X-Amz-Credential=[redacted]&x-amz-security-token=[redacted]&a=1',
    )
    expect(redactUrl('/cb?code=secret-code&state=s&access_token=tok')).toBe('/cb?code=[redacted]&state=s&access_token=[redacted]')
    expect(redactUrl('/x?%73ignature=abc')).toBe('/x?%73ignature=[redacted]')
  })
})
