import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../../config.js'
import type { Db } from '../../../db/database.js'
import { todayUtc } from '../../../lib/dates.js'
import type { Jobs } from '../../../lib/jobs.js'
import type { Metrics } from '../../../lib/metrics.js'
import type { Storage } from '../../../lib/storage.js'
import { resumableStore } from '../uploads/uploads.resumable-store.js'
import { DELIVERY_QUEUE, deliveryHandler } from '../webhooks/delivery.js'
import { retentionSweep } from './audit-retention.queries.js'
import { resumableExpirySweep } from './resumable-uploads.sweep.js'
import { runSweep } from './sweeps.js'

/** What a wing's job definitions are given; each wing defines the jobs over its own data (modules/index.ts lists them). */
export interface JobDeps {
  db: Db
  config: Config
  metrics: Metrics
  storage: Storage
  log: FastifyBaseLogger
}

const RETENTION_EVERY_SECONDS = 3600
// A sweep or a retention pass reads the whole fleet; a first sweep of a large fleet announces tens of
// thousands of notices. Given the delivery's 15 s it expired mid-run and started over, forever.
export const FLEET_JOB_EXPIRE_SECONDS = 1800
// Up to 4 × 10 deliveries in flight per instance: a receiver may take up to the timeout, holding up its batch.
const DELIVERY_WORKERS = 4
const DELIVERY_BATCH = 10

/** The platform's background jobs, on the database's job queue (src/lib/jobs.ts): webhook deliveries, audit retention, expired resumable uploads. */
export function definePlatformJobs(jobs: Jobs, { db, config, metrics, storage }: JobDeps): void {
  jobs.define({
    name: DELIVERY_QUEUE,
    handler: deliveryHandler({
      db,
      rules: config.webhooks,
      tuning: jobs.tuning,
      counted: (outcome) => metrics.webhookDeliveries.inc({ outcome }),
    }),
    workers: DELIVERY_WORKERS,
    batchSize: DELIVERY_BATCH,
    // The fan-out trigger announces new deliveries: this instance's worker looks at once.
    wakeOn: 'webhook_deliveries',
  })
  const expiry = resumableExpirySweep(resumableStore(config, storage))
  jobs.define({
    name: expiry.job,
    policy: 'short',
    handler: async () => void (await runSweep(db, expiry, todayUtc())),
    everySeconds: RETENTION_EVERY_SECONDS,
    expireInSeconds: FLEET_JOB_EXPIRE_SECONDS,
  })
  const days = config.auditRetentionDays
  if (days > 0) {
    const retention = retentionSweep(days)
    jobs.define({
      name: 'audit-retention',
      policy: 'short',
      handler: async () => void (await runSweep(db, retention, todayUtc())),
      everySeconds: RETENTION_EVERY_SECONDS,
      expireInSeconds: FLEET_JOB_EXPIRE_SECONDS,
    })
  }
}
