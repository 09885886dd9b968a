import type { FastifyInstance } from 'fastify'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { Database } from '../db/database.js'

/**
 * The Prometheus metrics of one app (DECISIONS §12), served at GET /metrics. A registry per app, not
 * prom-client's global one, so several apps in one process (the tests) keep their figures apart.
 *
 * - `http_request_duration_seconds{method,route,status_class}`: `route` is the route template
 *   (`/api/v1/shared/ships/:ship_id`), `unmatched` for a URL no route serves, never the raw URL.
 * - `db_connections{state="in_use"|"idle"|"waiting"}`: the PostgreSQL pool (PGlite: one idle connection).
 * - `uploads_processed_total{outcome="ready"|"rejected"}`: uploads whose content was checked.
 * - `webhook_deliveries_total{outcome}`: one per delivery attempt, fed by the webhook sender
 *   (`succeeded`, `retrying`, `failed`, `skipped`).
 * - `job_queue_depth`: jobs waiting to run, read at each scrape from the source the job queue
 *   hands to `jobQueueDepthFrom` (0 until one does).
 * - `bulk_operations{state="running"|"waiting"}`: bulk writes of this process running and waiting their
 *   turn (`bulkOperationsFrom`; modules/crew/assignments/bulk.routes.ts).
 * - prom-client's process defaults (CPU, memory, heap, event loop lag, handles, GC).
 */
export interface Metrics {
  readonly registry: Registry
  readonly requestDuration: Histogram<'method' | 'route' | 'status_class'>
  readonly uploadsProcessed: Counter<'outcome'>
  readonly webhookDeliveries: Counter<'outcome'>
  /** The job queue says how to count its waiting jobs; the gauge asks at every scrape. */
  jobQueueDepthFrom(depth: () => number | Promise<number>): void
  /** The bulk routes say how many of their operations run and wait; the gauge asks at every scrape. */
  bulkOperationsFrom(count: () => { running: number; waiting: number }): void
}

export function createMetrics(database: Database): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by method, route template and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  new Gauge({
    name: 'db_connections',
    help: 'Database connections in use and idle, and queries waiting for a connection',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { inUse, idle, waiting } = database.connections()
      this.set({ state: 'in_use' }, inUse)
      this.set({ state: 'idle' }, idle)
      this.set({ state: 'waiting' }, waiting)
    },
  })
  const uploadsProcessed = new Counter({
    name: 'uploads_processed_total',
    help: 'Uploads whose content was checked, by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  })
  const webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  })
  let queueDepth: () => number | Promise<number> = () => 0
  new Gauge({
    name: 'job_queue_depth',
    help: 'Jobs waiting to run',
    registers: [registry],
    async collect() {
      this.set(await queueDepth())
    },
  })
  let bulkOperations = () => ({ running: 0, waiting: 0 })
  new Gauge({
    name: 'bulk_operations',
    help: 'Bulk writes running and waiting their turn',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { running, waiting } = bulkOperations()
      this.set({ state: 'running' }, running)
      this.set({ state: 'waiting' }, waiting)
    },
  })
  return {
    registry,
    requestDuration,
    uploadsProcessed,
    webhookDeliveries,
    jobQueueDepthFrom: (depth) => {
      queueDepth = depth
    },
    bulkOperationsFrom: (count) => {
      bulkOperations = count
    },
  }
}

/** Times every answer by its route template; a URL that matched no route counts as `unmatched`. */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requestDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_class: `${Math.floor(reply.statusCode / 100)}xx`,
      },
      reply.elapsedTime / 1000,
    )
    done()
  })
}
