import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.js'
import { testConfig, useTestApp } from './app.js'
import { useOrg } from './factories.js'

const CREW_APP = 'https://crew.example.com'

describe('compression', () => {
  const t = useTestApp()
  const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers })

  it('answers gzip or br, as accepted, for a body over 1 KiB', async () => {
    const plain = await get('/openapi.json', {})
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.rawPayload.length).toBeGreaterThan(1024)

    const gzip = await get('/openapi.json', { 'accept-encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gzip.headers.vary).toMatch(/accept-encoding/i)
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body)
    expect(gzip.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4)

    const br = await get('/openapi.json', { 'accept-encoding': 'gzip, deflate, br' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body)
  })

  it('leaves a body of 1 KiB or less, and anything a client does not accept, as it is', async () => {
    const small = await get('/healthz', { 'accept-encoding': 'gzip, br' })
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(small.json()).toEqual({ status: 'ok' })
    const refused = await get('/openapi.json', { 'accept-encoding': 'identity' })
    expect(refused.headers['content-encoding']).toBeUndefined()
  })
})

describe('CORS off (no CORS_ORIGINS)', () => {
  const t = useTestApp()
  it('sends no CORS headers and answers no preflight', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/shared/ships',
      headers: { origin: CREW_APP, 'access-control-request-method': 'POST' },
    })
    expect(preflight.statusCode).toBe(404)
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
    const get = await t.app.inject({ method: 'GET', url: '/healthz', headers: { origin: CREW_APP } })
    expect(get.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('CORS on (CORS_ORIGINS lists origins)', () => {
  const t = useTestApp({ CORS_ORIGINS: `${CREW_APP}, http://localhost:5173` })
  const org = useOrg(t)

  it('answers a preflight from a listed origin, without a token', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/shared/ships',
      headers: {
        origin: CREW_APP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    })
    expect(preflight.statusCode).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe(CREW_APP)
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH, DELETE')
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization, content-type')
    expect(preflight.headers['access-control-max-age']).toBe('600')
  })

  it('lets a listed origin read answers and the request id; another origin gets no CORS headers', async () => {
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/v1/shared/ships',
      headers: { origin: 'http://localhost:5173', authorization: `Bearer ${org.admin.token}` },
    })
    expect(listed.statusCode).toBe(200)
    expect(listed.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(listed.headers['access-control-expose-headers']).toContain('x-request-id')

    const other = await t.app.inject({
      method: 'GET',
      url: '/api/v1/shared/ships',
      headers: { origin: 'https://evil.example.com', authorization: `Bearer ${org.admin.token}` },
    })
    expect(other.statusCode).toBe(200)
    expect(other.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('refuses a CORS_ORIGINS entry that is not an origin, naming the variable', () => {
    expect(testConfig({ CORS_ORIGINS: ` ${CREW_APP} ,, ` }).corsOrigins).toEqual([CREW_APP])
    for (const bad of ['crew.example.com', 'https://crew.example.com/app', '*']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/^Invalid configuration: CORS_ORIGINS entry/)
    }
  })
})
