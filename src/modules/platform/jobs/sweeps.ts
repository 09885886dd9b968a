import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Db } from '../../../db/database.js'
import { markSwept, organizationsToSweep, releaseLease, type SweepMark, takeLease } from './sweeps.queries.js'

// A periodic sweep (issue 42): one organization at a time, in batches of at most `batch` keys (each
// batch its own short statements, so no row lock is held for long and writes interleave), reading only
// what changed since the organization's last run, and one instance at a time over all instances (the
// job's lease, renewed between batches). Between batches it rests for a multiple of the time the batch
// took, so a sweep keeps a bounded share of the database's CPU and the writes of the day keep their latency
// (on the bench's two cores an unpaced sweep doubled the create's p99: docs/performance.md).

/**
 * Keys per batch: each batch's statement locks at most this many rows, for milliseconds. A batch is also as long
 * as the writes of the day share a core with the sweep at once, so short batches keep their p99 (250 keys took
 * 61 ms a batch at fleet scale and moved the create's p99 1.3–1.7 ×; 50 take 6 ms, and cost less per key).
 */
export const SWEEP_BATCH = 50
/** A run reads the writes from its previous run's start less this: a write committed that long after it began is still seen. */
export const WRITES_OVERLAP_MS = 3600_000
/** The smallest uuid: where a keyset over ids starts. */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000'
/** A holder that stops renewing (a dead instance) loses the lease after this long. */
export const LEASE_SECONDS = 60
/** The rest after a batch, as a multiple of the batch's time: the sweep is busy at most 1 / (1 + this) of its run. */
export const REST_PER_BUSY = 4
/** The longest rest, well inside the lease, so a slow batch never costs the lease. */
export const MAX_REST_MS = 10_000

/** How long to rest after a batch that kept the database busy `busyMs`. */
export const restFor = (busyMs: number) => Math.min(busyMs * REST_PER_BUSY, MAX_REST_MS)

/** Waits between batches; tests pass their own to see the rests without waiting. */
export type Rest = (ms: number) => Promise<unknown>

export interface PassInput {
  orgId: string
  /** Where the previous run left this organization; null on the first. */
  since: SweepMark | null
  today: string
  /** The previous batch's cursor; null at the pass's start. */
  after: string | null
  limit: number
}

/** The next batch's keys (at most `limit`; ids, or rows), and the cursor after it; null when the pass is through. */
export type SweepPass<K = string> = (db: Db, input: PassInput) => Promise<{ keys: K[]; after: string | null }>

export interface Sweep<K = string> {
  job: string
  passes: SweepPass<K>[]
  /** Brings one batch of an organization into step; returns how many rows it changed. */
  apply(db: Db, orgId: string, keys: K[], today: string): Promise<number>
}

export type SweepOutcome = { ran: false } | { ran: true; changed: number; batches: number }

export class LeaseLost extends Error {}

/** Runs the sweep unless another instance holds its lease (then it does nothing: `ran` false). */
export async function runSweep<K>(db: Db, sweep: Sweep<K>, today: string, batch = SWEEP_BATCH, rest: Rest = sleep): Promise<SweepOutcome> {
  const holder = randomUUID()
  if (!(await takeLease(db, sweep.job, holder, LEASE_SECONDS))) return { ran: false }
  let changed = 0
  let batches = 0
  try {
    for (const { orgId, now, mark } of await organizationsToSweep(db, sweep.job)) {
      for (const pass of sweep.passes) {
        let after: string | null = null
        do {
          const started = performance.now()
          const next: { keys: K[]; after: string | null } = await pass(db, { orgId, since: mark, today, after, limit: batch })
          if (next.keys.length > 0) {
            changed += await sweep.apply(db, orgId, next.keys, today)
            batches++
          }
          after = next.after
          if (!(await takeLease(db, sweep.job, holder, LEASE_SECONDS))) throw new LeaseLost(`${sweep.job}: the lease expired mid-run`)
          if (next.keys.length > 0) await rest(restFor(performance.now() - started))
        } while (after !== null)
      }
      await markSwept(db, orgId, sweep.job, now, today)
    }
  } finally {
    await releaseLease(db, sweep.job, holder)
  }
  return { ran: true, changed, batches }
}
