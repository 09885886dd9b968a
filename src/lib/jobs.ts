import type { FastifyBaseLogger } from 'fastify'
import PgBoss from 'pg-boss'
import type { Database } from '../db/database.js'

/** How the queue is worked; the defaults suit production, tests shorten the waits. */
export interface JobTuning {
  /** How long a webhook receiver has to answer (DECISIONS §11: a 2xx within 10 s). */
  deliveryTimeoutMs: number
  /** How often an idle worker looks for due jobs (a notification wakes it sooner). */
  pollingIntervalSeconds: number
  /** How often pg-boss's supervisor runs; it retries the jobs of a worker that died mid-job. */
  maintenanceIntervalSeconds: number
  /** How long a failed job waits before it runs again. */
  retryDelaySeconds: number
}

export const DEFAULT_TUNING: JobTuning = {
  deliveryTimeoutMs: 10_000,
  pollingIntervalSeconds: 2,
  maintenanceIntervalSeconds: 10,
  retryDelaySeconds: 5,
}

/** A job still running this long after it started belongs to a dead worker: it is retried. */
export const expireSeconds = (tuning: JobTuning) => Math.ceil(tuning.deliveryTimeoutMs / 1000) + 5

export interface QueueSpec {
  name: string
  /**
   * `short`: one queued job at most, so repeated requests for a sweep collapse into one run;
   * `stately`: also one running at most, over every instance.
   */
  policy?: 'standard' | 'short' | 'stately'
  handler: (data: any) => Promise<void>
  /** Polling loops of this instance on the queue, each working a batch of up to `batchSize` jobs at once (default 1 and 1). */
  workers?: number
  batchSize?: number
  /** Queue a job at start and then this often. */
  everySeconds?: number
  /** How long a job may run before it counts as lost and runs again (default: the delivery timeout and a margin). */
  expireInSeconds?: number
  /** A LISTEN channel whose notifications wake this instance's workers at once instead of at their next poll. */
  wakeOn?: string
}

const RETRY_START_MS = 5000
// The statements of pg-boss that complete or fail jobs by id.
const SETTLES_JOBS = /id IN \(SELECT UNNEST\(\$2::uuid\[\]\)\)/

/**
 * The job queue: pg-boss 10 on the service's own database, both engines (on PGlite through the
 * same connection as everything else). `run` false: the queues exist, and jobs can be queued, but
 * this instance works none of them (an API-only instance).
 */
export class Jobs {
  private readonly boss: PgBoss
  private readonly specs: QueueSpec[] = []
  private readonly started = new Set<string>()
  private readonly timers: NodeJS.Timeout[] = []
  private readonly unsubscribes: (() => Promise<void>)[] = []
  private stopped = false

  constructor(
    private readonly database: Database,
    private readonly run: boolean,
    readonly tuning: JobTuning,
    private readonly log: FastifyBaseLogger,
  ) {
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => this.execute(text, values) },
      supervise: run,
      schedule: false,
      maintenanceIntervalSeconds: tuning.maintenanceIntervalSeconds,
    })
    this.boss.on('error', (error) => log.error({ err: error }, 'job queue error'))
  }

  /**
   * pg-boss 10 does not await the statement that completes or fails a job, so a database lost at that
   * moment would be an unhandled rejection (the end of the process). Such a job stays active instead:
   * it expires and runs again, which is what a worker dying there means anyway.
   */
  private async execute(text: string, values: unknown[]) {
    try {
      return await this.database.executeSql(text, values)
    } catch (error) {
      if (!SETTLES_JOBS.test(text)) throw error
      this.log.warn({ err: error }, 'could not settle a job; it runs again when it expires')
      return { rows: [{ count: 0 }] }
    }
  }

  define(spec: QueueSpec): void {
    this.specs.push(spec)
  }

  /** Starts the queue; a database that cannot be reached yet is tried again until it can, or until stop. */
  async start(): Promise<void> {
    try {
      await this.boss.start()
      // After a failed start only the queues not yet started are started (no worker twice).
      for (const spec of this.specs.filter((s) => !this.started.has(s.name))) {
        await this.startQueue(spec)
        this.started.add(spec.name)
      }
    } catch (error) {
      if (this.stopped) return
      this.log.warn({ err: error }, 'job queue could not start; trying again')
      this.timers.push(setTimeout(() => void this.start(), RETRY_START_MS).unref())
    }
  }

  private async startQueue(spec: QueueSpec): Promise<void> {
    const options = {
      name: spec.name,
      policy: spec.policy ?? 'standard',
      retryLimit: 20,
      retryDelay: this.tuning.retryDelaySeconds,
      expireInSeconds: spec.expireInSeconds ?? expireSeconds(this.tuning),
    }
    await this.boss.createQueue(spec.name, options)
    await this.boss.updateQueue(spec.name, options)
    if (!this.run || this.stopped) return
    const workerIds: string[] = []
    for (let i = 0; i < (spec.workers ?? 1); i++) {
      const batchSize = spec.batchSize ?? 1
      const work = async (jobs: PgBoss.Job<unknown>[]) => {
        // Each job settles on its own: one that fails is retried, the others of its batch complete.
        const results = await Promise.allSettled(jobs.map((job) => spec.handler(job.data)))
        const failed = jobs.filter((_, n) => results[n].status === 'rejected').map((job) => job.id)
        if (failed.length) await this.boss.fail(spec.name, failed)
        // A full batch suggests more are waiting: fetch again at once instead of after the polling interval.
        if (jobs.length === batchSize) this.boss.notifyWorker(workerIds[i])
      }
      workerIds.push(await this.boss.work(spec.name, { pollingIntervalSeconds: this.tuning.pollingIntervalSeconds, batchSize }, work))
    }
    const send = () => this.send(spec.name)
    if (spec.everySeconds) {
      void send()
      this.timers.push(setInterval(send, spec.everySeconds * 1000).unref())
    }
    if (spec.wakeOn) {
      const wake = () => {
        for (const id of workerIds) this.boss.notifyWorker(id)
      }
      this.unsubscribes.push(
        await this.database.subscribe(
          spec.wakeOn,
          () => wake(),
          () => {},
        ),
      )
    }
  }

  /** Jobs queued and not yet running, over every queue: the metrics' queue depth. */
  async depth(): Promise<number> {
    // Before the queue has started (its schema may not exist yet) there is nothing to count.
    const sizes = await Promise.all(this.specs.map((spec) => this.boss.getQueueSize(spec.name).catch(() => 0)))
    return sizes.reduce((sum, size) => sum + size, 0)
  }

  async send(name: string): Promise<void> {
    await this.boss.send(name, {}).catch((error) => this.log.error({ err: error, queue: name }, 'could not queue a job'))
  }

  /** Lets running jobs finish (up to the delivery timeout); what is still running then is retried later. */
  async stop(): Promise<void> {
    this.stopped = true
    for (const timer of this.timers) clearTimeout(timer)
    await Promise.all(this.unsubscribes.map((unsubscribe) => unsubscribe()))
    await this.boss.stop({ close: false, graceful: true, wait: true, timeout: this.tuning.deliveryTimeoutMs + 1000 }).catch(() => {})
  }
}
