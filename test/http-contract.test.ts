import { createServer, type Server, Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { fromPostgres } from '../src/db/database.js'
import { client, testConfig, useTestApp } from './app.js'
import { createOrg, useOrg } from './factories.js'

const t = useTestApp()
const org = useOrg(t)

describe('the error contract', () => {
  it('lists every problem of every request part in one 422', async () => {
    const res = await org.admin.api.patch('/api/v1/shared/ships/not-a-uuid', { name: 5, mmsi: '' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      detail: [
        { loc: ['path', 'ship_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' },
        { loc: ['body', 'name'], msg: 'Input should be a valid string', type: 'string_type' },
      ],
    })
    const query = await org.admin.api.get(`/api/v1/shared/users?limit=0&include_count=maybe&search=${'x'.repeat(201)}`)
    expect(query.status).toBe(422)
    expect(query.body.detail).toEqual([
      { loc: ['query', 'limit'], msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal' },
      { loc: ['query', 'search'], msg: 'String should have at most 200 characters', type: 'string_too_long' },
      { loc: ['query', 'include_count'], msg: 'Input should be a valid boolean', type: 'bool_parsing' },
    ])
  })

  it('reads query strings as their declared types but keeps body types strict', async () => {
    expect((await org.admin.api.get('/api/v1/shared/users?limit=5&include_count=1')).body.totalCount).toEqual(expect.any(Number))
    const res = await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Strict', imoNumber: 9074729 })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([{ loc: ['body', 'imoNumber'], msg: 'Input should be a valid string', type: 'string_type' }])
  })

  it('answers a body that is not JSON with 422 json_invalid', async () => {
    for (const [payload, type] of [
      ['{"name": ', 'application/json'],
      ['name=x', 'text/plain'],
    ]) {
      const res = await org.admin.api.post('/api/v1/shared/ships', payload, { 'content-type': type })
      expect(res.status).toBe(422)
      expect(res.body).toEqual({ detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }] })
    }
  })

  it('refuses a body over 1 MiB with 413', async () => {
    const res = await org.admin.api.post('/api/v1/shared/ships', { name: 'x'.repeat(1024 * 1024 + 10), imoNumber: '9074729' })
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ detail: expect.any(String) })
  })

  it('answers unknown paths with a 404 detail and treats trailing slashes alike', async () => {
    const res = await org.admin.api.get('/api/v1/nothing-here')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ detail: 'Not Found' })
    expect((await org.admin.api.get('/api/v1/shared/ships/')).status).toBe(200)
    expect((await org.admin.api.get('/api/v1/shared/ships')).status).toBe(200)
  })

  it('never leaks internals in a 500', async () => {
    const broken = await buildApp({ config: testConfig(), database: { ...t.database, close: async () => {} }, logger: false })
    broken.get('/api/v1/boom', { config: { public: true } }, async () => {
      throw new Error('select * from secrets')
    })
    const res = await client(broken).get('/api/v1/boom')
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ detail: 'Internal server error' })
    await broken.close()
  })
})

describe('product gating', () => {
  it('refuses learn and crew routes to organizations without the product, and never gates users or ships', async () => {
    const crewOnly = await createOrg(t.app, t.database.db, { products: ['crew'] })
    const learnOnly = await createOrg(t.app, t.database.db, { products: ['learn'] })
    for (const url of ['/api/v1/courses/', '/api/v1/learn/courses/', '/api/v1/assignments/', '/api/v1/learn/assignments']) {
      const res = await crewOnly.admin.api.get(url)
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ detail: 'Your organization does not have the learn product' })
      expect((await learnOnly.admin.api.get(url)).status).toBe(200)
    }
    const roster = await learnOnly.admin.api.get('/api/v1/crew/roster')
    expect(roster.status).toBe(403)
    expect((await crewOnly.admin.api.get('/api/v1/crew/roster')).status).toBe(200)
    expect((await crewOnly.admin.api.get('/api/v1/shared/ships')).status).toBe(200)
    expect((await learnOnly.admin.api.get('/api/v1/shared/users')).status).toBe(200)
  })
})

describe('operations endpoints', () => {
  it('serves /healthz, /readyz, /docs and an OpenAPI 3.1 document of every route', async () => {
    const anonymous = client(t.app)
    expect((await anonymous.get('/healthz')).body).toEqual({ status: 'ok' })
    expect((await anonymous.get('/readyz')).status).toBe(200)
    const docs = await anonymous.get('/docs/')
    expect(docs.status).toBe(200)
    expect(docs.text).toContain('swagger')
    const spec = (await anonymous.get('/openapi.json')).body
    expect(spec.openapi).toBe('3.1.0')
    expect(spec.info.version).toBe('0.1.0')
    expect(spec.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    const operations = Object.entries(spec.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op })),
    )
    expect(operations.length).toBeGreaterThan(10)
    for (const { op } of operations) {
      const success = Object.keys(op.responses).find((code) => code.startsWith('2') || code.startsWith('3'))
      expect(success).toBeDefined()
    }
    expect(spec.paths['/api/v1/shared/ships/'] ?? spec.paths['/api/v1/shared/ships']).toBeDefined()
  })

  it('documents the statuses answered before any handler runs: 413 where a body is read, 414 where a path has parameters', async () => {
    const spec = (await client(t.app).get('/openapi.json')).body
    for (const [path, ops] of Object.entries(spec.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const codes = Object.keys(op.responses)
        expect([method, path, codes.includes('413')]).toEqual([method, path, method !== 'get'])
        expect([method, path, codes.includes('414')]).toEqual([method, path, path.includes('{')])
      }
    }
    expect(spec.paths['/api/v1/auth/token'].post.responses['401'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorBody',
    })
    const tooLarge = await org.admin.api.post('/api/v1/shared/ships', `{"name":"${'x'.repeat(1024 * 1024)}"}`, {
      'content-type': 'application/json',
    })
    expect([tooLarge.status, tooLarge.body]).toEqual([413, { detail: 'Request body too large' }])
    const tooLong = await org.admin.api.get(`/api/v1/shared/ships/${'x'.repeat(5000)}`)
    expect([tooLong.status, tooLong.body]).toEqual([414, { detail: 'A path parameter is too long' }])
  })

  it('answers /readyz 503 while the database is unreachable', async () => {
    const down = await buildApp({ config: testConfig(), database: fromPostgres('postgres://postgres@127.0.0.1:1/none', 1), logger: false })
    const res = await client(down).get('/readyz')
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ detail: 'Database unavailable' })
    await down.close()
  })

  it.runIf(process.env.TEST_DATABASE_URL)('recovers /readyz when the database comes back, without a restart', async () => {
    const target = new URL(process.env.TEST_DATABASE_URL!)
    const sockets = new Set<Socket>()
    let proxy: Server = await startProxy(0, Number(target.port || 5432), sockets)
    const port = (proxy.address() as { port: number }).port
    const url = new URL(target)
    url.hostname = '127.0.0.1'
    url.port = String(port)
    const app = await buildApp({ config: testConfig(), database: fromPostgres(url.toString(), 2), logger: false })
    const api = client(app)
    expect((await api.get('/readyz')).status).toBe(200)
    await new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy()
      proxy.close(() => resolve())
    })
    expect((await api.get('/readyz')).status).toBe(503)
    proxy = await startProxy(port, Number(target.port || 5432), sockets)
    expect((await api.get('/readyz')).status).toBe(200)
    await app.close()
    proxy.close()
  })
})

function startProxy(port: number, targetPort: number, sockets: Set<Socket>): Promise<Server> {
  const server = createServer((incoming) => {
    const outgoing = new Socket()
    outgoing.connect(targetPort, '127.0.0.1')
    for (const s of [incoming, outgoing]) {
      sockets.add(s)
      s.on('error', () => {})
      s.on('close', () => sockets.delete(s))
    }
    incoming.pipe(outgoing).pipe(incoming)
  })
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)))
}

describe('request bodies', () => {
  it('refuses a JSON null where an object is expected', async () => {
    const res = await org.admin.api.post('/api/v1/shared/ships', 'null', { 'content-type': 'application/json' })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ detail: [{ loc: ['body'], msg: 'Input should be a valid object', type: 'model_type' }] })
  })
})
