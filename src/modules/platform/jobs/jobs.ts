import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../../config.js'
import type { Db } from '../../../db/database.js'
import { todayUtc } from '../../../lib/dates.js'
import type { Jobs } from '../../../lib/jobs.js'
import type { Metrics } from '../../../lib/metrics.js'
import type { Storage } from '../../../lib/storage.js'
import { sweepExpiryNotices } from '../../crew/expiry-notices/expiry-notices.queries.js'
import { expiredSessions } from '../../learning/launch/sessions.queries.js'
import { abandonExpired } from '../../learning/launch/sessions.service.js'
import { IMPORT_QUEUE, importHandler } from '../../learning/packages/packages.import.js'
import { syncContractService } from '../../crew/sea-service/contract-service.queries.js'
import { DELIVERY_QUEUE, deliveryHandler } from '../webhooks/delivery.js'
import { deleteOldEvents } from './audit-retention.queries.js'

const RETENTION_EVERY_SECONDS = 3600
// A sweep or a retention pass reads the whole fleet; a first sweep of a large fleet announces tens of
// thousands of notices. Given the delivery's 15 s it expired mid-run and started over, forever.
const FLEET_JOB_EXPIRE_SECONDS = 1800
// Up to 4 × 10 deliveries in flight per instance: a receiver may take up to the timeout, holding up its batch.
const DELIVERY_WORKERS = 4
const DELIVERY_BATCH = 10
// A course import streams up to COURSE_PACKAGE_MAX_BYTES (1 GiB) into storage; the periodic run picks up
// an import whose request to run was lost (queued while the queue could not be reached).
const IMPORT_EXPIRE_SECONDS = 3600
const IMPORT_EVERY_SECONDS = 300
const SESSION_SWEEP_EVERY_SECONDS = 60
const SWEEP_BATCH = 500

/** Every background job of the service, on the database's job queue (src/lib/jobs.ts). */
export function defineJobs(
  jobs: Jobs,
  { db, config, metrics, storage, log }: { db: Db; config: Config; metrics: Metrics; storage: Storage; log: FastifyBaseLogger },
): void {
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
  jobs.define({
    name: 'expiry-sweep',
    policy: 'short',
    handler: async () => void (await sweepExpiryNotices(db, todayUtc())),
    // At start and on the interval only (DECISIONS §11): a sweep reads every dated document of every
    // organization, so one per write would cost a fleet-sized scan per document saved.
    everySeconds: config.expirySweepIntervalSeconds,
    expireInSeconds: FLEET_JOB_EXPIRE_SECONDS,
  })
  jobs.define({
    name: 'sea-service-sweep',
    policy: 'short',
    // Contracts whose endDate passed since the last run get their sea service (DECISIONS §14); on the
    // expiry sweep's interval, and idempotent like it.
    handler: async () => void (await syncContractService(db, { everyOrganization: true }, todayUtc())),
    everySeconds: config.expirySweepIntervalSeconds,
    expireInSeconds: FLEET_JOB_EXPIRE_SECONDS,
  })
  jobs.define({
    name: IMPORT_QUEUE,
    // One run at a time, over every instance, works every running import; a request made meanwhile queues one more run.
    policy: 'stately',
    handler: importHandler({ db, storage, config, log }),
    everySeconds: IMPORT_EVERY_SECONDS,
    expireInSeconds: IMPORT_EXPIRE_SECONDS,
  })
  jobs.define({
    name: 'launch-session-sweep',
    policy: 'short',
    // Learners close windows without terminating: a session past its expiry is abandoned (DECISIONS §13.4),
    // a batch per run, oldest first.
    handler: async () => abandonExpired({ db, config }, await expiredSessions(db, SWEEP_BATCH)),
    everySeconds: SESSION_SWEEP_EVERY_SECONDS,
    expireInSeconds: FLEET_JOB_EXPIRE_SECONDS,
  })
  const days = config.auditRetentionDays
  if (days > 0) {
    jobs.define({
      name: 'audit-retention',
      policy: 'short',
      handler: async () => void (await deleteOldEvents(db, days)),
      everySeconds: RETENTION_EVERY_SECONDS,
      expireInSeconds: FLEET_JOB_EXPIRE_SECONDS,
    })
  }
}
