import { todayUtc } from '../../lib/dates.js'
import type { Jobs } from '../../lib/jobs.js'
import { FLEET_JOB_EXPIRE_SECONDS, type JobDeps } from '../platform/jobs/jobs.js'
import { expirySweep } from './expiry-notices/expiry-notices.queries.js'
import { runSweep } from '../platform/jobs/sweeps.js'
import { contractSweep } from './sea-service/contract-sweep.queries.js'

/** The crew wing's background jobs: the expiry notices' sweep and the sea service of ended contracts. */
export function defineCrewJobs(jobs: Jobs, { db, config }: JobDeps): void {
  jobs.define({
    name: 'expiry-sweep',
    policy: 'short',
    handler: async () => void (await runSweep(db, expirySweep, todayUtc())),
    // At start and on the interval only (DECISIONS §11), per organization and batch, reading the documents
    // whose thresholds may have been crossed or that were written since the last run.
    everySeconds: config.expirySweepIntervalSeconds,
    expireInSeconds: FLEET_JOB_EXPIRE_SECONDS,
  })
  jobs.define({
    name: 'sea-service-sweep',
    policy: 'short',
    // Contracts whose endDate passed since the last run get their sea service (DECISIONS §14); on the
    // expiry sweep's interval, idempotent like it, per organization and batch, one instance at a time.
    handler: async () => void (await runSweep(db, contractSweep, todayUtc())),
    everySeconds: config.expirySweepIntervalSeconds,
    expireInSeconds: FLEET_JOB_EXPIRE_SECONDS,
  })
}
