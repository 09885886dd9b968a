import { randomFillSync } from 'node:crypto'
import { v7 } from 'uuid'

/**
 * Random bytes drawn 4 KiB at a time, as Node's randomUUID caches its own: each draw is a call into
 * OpenSSL (and a getpid), which per write cost more than the ids it made (profiled, docs/performance.md).
 */
const POOL_BYTES = 4096
let pool = Buffer.alloc(0)
let used = 0

function randomBytes(n: number): Buffer {
  if (n > POOL_BYTES) return randomFillSync(Buffer.allocUnsafe(n))
  if (used + n > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES))
    used = 0
  }
  used += n
  return pool.subarray(used - n, used)
}

/** The last millisecond handed out and the sequence reached in it, as the uuid package keeps its own. */
const last = { msecs: Number.NEGATIVE_INFINITY, seq: 0 }
const MAX_SEQ = 0xffffffff

/**
 * `count` time-ordered ids (UUID version 7) from one draw of random bytes: the uuid package draws
 * anew for each id, which for the thousand ids of a bulk statement was a tenth of its server CPU
 * (profiled). Within a millisecond the sequence counts on from call to call, so ids sort in the order
 * they were handed out, also across calls: the events of one statement keep their order.
 */
export function uuidv7s(count: number): string[] {
  const random = randomBytes(16 * count + 4)
  const now = Date.now()
  if (now > last.msecs || last.seq + count > MAX_SEQ) {
    // A new millisecond (or a spent one): 30 random bits leave room to count up by a billion.
    last.msecs = Math.max(now, last.msecs + 1)
    last.seq = random.readUInt32BE(16 * count) & 0x3fffffff
  } else {
    last.seq += 1
  }
  const { msecs } = last
  const start = last.seq
  last.seq = start + Math.max(count - 1, 0)
  return Array.from({ length: count }, (_, i) => v7({ msecs, seq: start + i, random: random.subarray(16 * i, 16 * i + 16) }))
}

/** One time-ordered id (`uuidv7s`): from the pool, where the uuid package's own draws random bytes for each id. */
export const uuidv7 = (): string => uuidv7s(1)[0]
