import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { client, testConfig, testDatabase, useTestApp } from './app.js'
import { useOrg } from './factories.js'

const t = useTestApp()
const org = useOrg(t)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('request ids (DECISIONS §12)', () => {
  it("echoes the client's x-request-id on success, error and unknown routes", async () => {
    const id = 'trip-42.retry_1'
    for (const res of [
      await org.admin.api.get('/api/v1/shared/ships', { 'x-request-id': id }),
      await org.admin.api.get('/api/v1/shared/ships/not-a-uuid', { 'x-request-id': id }),
      await client(t.app).get('/api/v1/shared/ships', { 'x-request-id': id }),
      await client(t.app).get('/no/such/route', { 'x-request-id': id }),
    ]) {
      expect(res.headers['x-request-id']).toBe(id)
    }
  })

  it('generates one when the client sends none or one that is not 1–128 of [A-Za-z0-9._-]', async () => {
    const sent = [undefined, '', 'x'.repeat(129), 'has space', 'semi;colon', 'ünï']
    const seen = new Set<string>()
    for (const value of sent) {
      const res = await org.admin.api.get('/api/v1/shared/ships', value === undefined ? {} : { 'x-request-id': value })
      expect(res.status).toBe(200)
      expect(res.headers['x-request-id']).toMatch(UUID)
      seen.add(String(res.headers['x-request-id']))
    }
    expect(seen.size).toBe(sent.length)
    const longest = 'a'.repeat(128)
    expect((await org.admin.api.get('/api/v1/shared/ships', { 'x-request-id': longest })).headers['x-request-id']).toBe(longest)
  })

  it('puts the id in every log line of the request', async () => {
    const lines: Record<string, unknown>[] = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
        done()
      },
    })
    const app = await buildApp({
      config: testConfig({ LOG_LEVEL: 'info' }),
      database: await testDatabase(),
      logger: { level: 'info', stream },
    })
    try {
      await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'log-me-1' } })
    } finally {
      await app.close()
    }
    const ofRequest = lines.filter((line) => line.requestId === 'log-me-1')
    expect(ofRequest.map((line) => line.msg)).toEqual(['incoming request', 'request completed'])
  })
})
