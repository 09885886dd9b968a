import { describe, expect, it } from 'vitest'
import { PNG_3X2, uploadFile } from './fixtures/uploads.js'
import { createMetrics } from '../src/lib/metrics.js'
import { client, testDatabase, useTestApp } from './app.js'
import { nextImo, useOrg } from './factories.js'
import { parsePrometheusText } from './prometheus.js'

const TOKEN = 'metrics-token-0123456789'
const pg = Boolean(process.env.TEST_DATABASE_URL)

/** GET /metrics, parsed by a Prometheus text-format parser: the metric families by name. */
async function scrape(api: ReturnType<typeof client>) {
  const res = await api.get('/metrics', { authorization: `Bearer ${TOKEN}` })
  expect(res.status).toBe(200)
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
  return parsePrometheusText(res.text)
}

describe('GET /metrics', () => {
  // An app of its own, so its registry counts only this file's requests.
  const t = useTestApp({ METRICS_TOKEN: TOKEN })
  const org = useOrg(t)

  it('times requests by method, route template and status class, never by the raw URL', async () => {
    const ship = (await org.admin.api.post('/api/v1/shared/ships', { name: 'Metered', imoNumber: nextImo() })).body
    expect((await org.admin.api.get(`/api/v1/shared/ships/${ship.id}`)).status).toBe(200)
    expect((await org.admin.api.get(`/api/v1/shared/ships/${crypto.randomUUID()}`)).status).toBe(404)
    expect((await client(t.app).get(`/no/such/${ship.id}`)).status).toBe(404)

    const families = await scrape(client(t.app))
    const duration = families.get('http_request_duration_seconds')!
    expect(duration.type).toBe('histogram')
    const counts = duration.samples.filter((sample) => sample.name === 'http_request_duration_seconds_count')
    const series = counts.map((sample) => sample.labels)
    expect(series).toContainEqual({ method: 'GET', route: '/api/v1/shared/ships/:ship_id', status_class: '2xx' })
    expect(series).toContainEqual({ method: 'GET', route: '/api/v1/shared/ships/:ship_id', status_class: '4xx' })
    expect(series).toContainEqual({ method: 'POST', route: '/api/v1/shared/ships', status_class: '2xx' })
    expect(series).toContainEqual({ method: 'GET', route: 'unmatched', status_class: '4xx' })
    expect(JSON.stringify(duration.samples)).not.toContain(ship.id)
    const notFound = { method: 'GET', route: '/api/v1/shared/ships/:ship_id', status_class: '4xx' }
    expect(counts.find((sample) => JSON.stringify(sample.labels) === JSON.stringify(notFound))!.value).toBe(1)
    expect(duration.samples).toContainEqual({ name: 'http_request_duration_seconds_bucket', labels: { le: '+Inf', ...notFound }, value: 1 })
  })

  it('reports the database connections, the process defaults, the job queue and the webhook deliveries', async () => {
    const families = await scrape(client(t.app))
    const connections = Object.fromEntries(families.get('db_connections')!.samples.map((m) => [m.labels.state, m.value]))
    expect(Object.keys(connections).sort()).toEqual(['idle', 'in_use', 'waiting'])
    if (pg) expect(connections.in_use + connections.idle).toBeLessThanOrEqual(t.config.dbPoolSize)
    else expect(connections).toEqual({ in_use: 0, idle: 1, waiting: 0 })
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(families.has(name), name).toBe(true)
    }
    // The jobs waiting in the database's queue: other tests on a shared database may have queued some.
    expect(families.get('job_queue_depth')!.samples).toEqual([{ name: 'job_queue_depth', labels: {}, value: expect.any(Number) }])
    expect(families.get('webhook_deliveries_total')!.type).toBe('counter')
  })

  it('counts uploads processed by outcome', async () => {
    expect((await uploadFile(t.app, org.crew.api, PNG_3X2, 'image/png')).finalized.body.status).toBe('ready')
    const { finalized } = await uploadFile(t.app, org.crew.api, Buffer.from('not a png at all'), 'image/png')
    expect(finalized.body.status).toBe('rejected')
    // A replayed finalize finds the work done and counts nothing.
    await org.crew.api.post(`/api/v1/shared/uploads/${finalized.body.id}/finalize`)
    const outcomes = (await scrape(client(t.app))).get('uploads_processed_total')!.samples
    expect(outcomes).toEqual([
      { name: 'uploads_processed_total', labels: { outcome: 'ready' }, value: 1 },
      { name: 'uploads_processed_total', labels: { outcome: 'rejected' }, value: 1 },
    ])
  })

  it('asks for the bearer METRICS_TOKEN when it is set: 401 without it or with another', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: TOKEN }]
    for (const headers of attempts) {
      const res = await client(t.app).get('/metrics', headers)
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ detail: 'Not authenticated' })
      expect(res.headers['www-authenticate']).toBe('Bearer')
    }
  })

  it('stays out of the OpenAPI document, like /healthz', async () => {
    const doc = (await client(t.app).get('/openapi.json')).body
    expect(Object.keys(doc.paths)).not.toContain('/metrics')
  })
})

describe('GET /metrics without METRICS_TOKEN', () => {
  const t = useTestApp()
  it('is open', async () => {
    expect((await client(t.app).get('/metrics')).status).toBe(200)
  })
})

describe('the job queue depth', () => {
  it('is read at each scrape from the source the job queue hands over', async () => {
    const metrics = createMetrics(await testDatabase())
    let waiting = 3
    metrics.jobQueueDepthFrom(async () => waiting)
    const depth = async () => (await metrics.registry.getSingleMetric('job_queue_depth')!.get()).values[0].value
    expect(await depth()).toBe(3)
    waiting = 0
    expect(await depth()).toBe(0)
  })
})
