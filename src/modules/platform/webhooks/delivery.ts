import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import type { Selectable } from 'kysely'
import { Webhook as Signer } from 'standardwebhooks'
import type { Db } from '../../../db/database.js'
import type { EventsTable } from '../../../db/schema.js'
import { eventWire } from '../audit/audit.schemas.js'
import { expireSeconds, type JobTuning } from '../../../lib/jobs.js'
import { abandonDelivery, claimDelivery, isHeldElsewhere, type Outcome, recordAttempt } from './delivery.queries.js'
import { guardedLookup, isAllowedHost, isRefusedAddress, type TargetRules } from './target-guard.js'

export const DELIVERY_QUEUE = 'webhook-delivery'

// DECISIONS §11: after the n-th failed attempt the next comes this much later; after the 8th, failed.
const RETRY_DELAYS_MS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600].map((s) => s * 1000)

/** When the next attempt is due after `attemptsMade` failed ones, or null when the delivery has failed for good. */
export function nextAttemptAt(attemptsMade: number, now: Date): Date | null {
  const delay = RETRY_DELAYS_MS[attemptsMade - 1]
  return delay === undefined ? null : new Date(now.getTime() + delay)
}

/** The POST of one event: Standard Webhooks headers, signed with the subscription's current secret. */
export function signedRequest(event: Selectable<EventsTable>, secret: string, now: Date) {
  const body = JSON.stringify(eventWire(event))
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Seaworthy-Webhooks/1',
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Signer(secret).sign(event.id, now, body),
  }
  return { body, headers }
}

/** The receiver's status, or null when it did not answer within the timeout or could not be reached. */
function post(url: string, body: string, headers: Record<string, string>, rules: TargetRules, timeoutMs: number): Promise<number | null> {
  const target = new URL(url)
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1')
  const guarded = !isAllowedHost(target, rules)
  // Checked again at delivery: an address literal here, a name at connect time (guardedLookup).
  if (guarded && isIP(host) && isRefusedAddress(host)) return Promise.resolve(null)
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve) => {
    const req = send(
      target,
      { method: 'POST', headers, signal: AbortSignal.timeout(timeoutMs), ...(guarded && { lookup: guardedLookup }) },
      (res) => {
        res.on('error', () => resolve(null))
        // The status counts once the whole answer is in, within the timeout.
        res.on('end', () => resolve(res.statusCode ?? null))
        res.resume()
      },
    )
    req.on('error', () => resolve(null))
    req.end(body)
  })
}

class HeldElsewhere extends Error {}

export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed' | 'skipped'

export interface DeliveryDeps {
  db: Db
  rules: TargetRules
  tuning: JobTuning
  /** Told the outcome of every attempt (the metrics). */
  counted: (outcome: DeliveryOutcome) => void
  now?: () => Date
}

/**
 * One job: one attempt of one delivery. A job for an attempt that is no longer due does nothing; one
 * whose delivery another worker holds fails, so pg-boss tries it again later. A worker that dies
 * between sending and recording leaves the job active: pg-boss expires it and the attempt is made again
 * (at least once).
 */
export function deliveryHandler({ db, rules, tuning, counted, now = () => new Date() }: DeliveryDeps) {
  return async ({ deliveryId, attempt }: { deliveryId: string; attempt: number }) => {
    const claimed = await claimDelivery(db, deliveryId, attempt, expireSeconds(tuning))
    if (!claimed) {
      if (await isHeldElsewhere(db, deliveryId, attempt)) throw new HeldElsewhere(`Delivery ${deliveryId} is held by another worker`)
      return
    }
    if (!claimed.active) {
      await abandonDelivery(db, deliveryId)
      return counted('skipped')
    }
    const sentAt = now()
    const { body, headers } = signedRequest(claimed.event, claimed.secret, sentAt)
    const status = await post(claimed.url, body, headers, rules, tuning.deliveryTimeoutMs)
    const ok = status !== null && status >= 200 && status < 300
    const next = ok ? null : nextAttemptAt(attempt + 1, now())
    const outcome: Outcome = {
      status: ok ? 'succeeded' : next ? 'pending' : 'failed',
      responseStatus: status,
      durationMs: status === null ? null : now().getTime() - sentAt.getTime(),
      nextAttemptAt: next,
    }
    await recordAttempt(db, deliveryId, outcome)
    counted(ok ? 'succeeded' : next ? 'retrying' : 'failed')
  }
}
