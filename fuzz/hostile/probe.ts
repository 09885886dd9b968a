import { Worker } from 'node:worker_threads'

// The continuous GET /healthz probe (probe-worker.mjs runs it on its own thread) and what it saw in a
// window of time: the slowest answer, and any that was not a 200.

const INTERVAL_MS = 20
/** A probe still unanswered after this is recorded as failed, and the next one starts. */
const PROBE_TIMEOUT_MS = 30_000

export interface Sample {
  start: number
  end: number
  status: number
}

export interface Seen {
  probes: number
  maxMs: number
  failures: number
}

export const now = () => performance.timeOrigin + performance.now()

export class HealthProbe {
  private readonly samples: Sample[] = []
  private readonly waiters: { after: number; resolve: () => void }[] = []
  private readonly worker: Worker

  constructor(url: string) {
    this.worker = new Worker(new URL('./probe-worker.mjs', import.meta.url), {
      workerData: { url, intervalMs: INTERVAL_MS, timeoutMs: PROBE_TIMEOUT_MS },
    })
    this.worker.on('message', (sample: Sample) => {
      this.samples.push(sample)
      for (const waiter of this.waiters.filter((w) => sample.start >= w.after)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
    })
  }

  /** Resolves once a probe sent at or after `time` has been answered (or has failed). */
  settledAfter(time: number): Promise<void> {
    if (this.samples.some((s) => s.start >= time)) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push({ after: time, resolve }))
  }

  /** The probes that were open at any moment of [from, to]. */
  seen(from: number, to: number): Seen {
    const during = this.samples.filter((s) => s.end >= from && s.start <= to)
    return {
      probes: during.length,
      maxMs: Math.max(0, ...during.map((s) => s.end - s.start)),
      failures: during.filter((s) => s.status !== 200).length,
    }
  }

  async stop(): Promise<void> {
    this.worker.postMessage('stop')
    await new Promise((resolve) => this.worker.once('exit', resolve))
  }
}
