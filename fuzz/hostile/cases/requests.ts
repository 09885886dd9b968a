import { setTimeout as sleep } from 'node:timers/promises'
import { type Case, hostileCase } from '../harness.js'
import { send } from '../http.js'
import { MIN_BYTES_PER_SECOND, MIN_RATE_GRACE_SECONDS } from '../settings.js'

// A request body trickled in one byte a second (issue 36): cut with 408 once the grace is over.

const DECLARED_BYTES = 1000

async function* oneBytePerSecond(signal: AbortSignal): AsyncGenerator<Buffer> {
  for (let i = 0; i < DECLARED_BYTES && !signal.aborted; i++) {
    yield Buffer.from(i === 0 ? '{' : ' ')
    await sleep(1000, undefined, { signal }).catch(() => undefined)
  }
}

export const requestCases: Case[] = [
  hostileCase({
    group: 'request',
    name: `a body at one byte a second (< ${MIN_BYTES_PER_SECOND} B/s after ${MIN_RATE_GRACE_SECONDS} s): 408`,
    run: async (world, _: unknown, signal) => {
      const answer = await send(`${world.service.baseUrl}/api/v1/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(DECLARED_BYTES) },
        body: oneBytePerSecond(signal),
        signal,
      })
      return answer.status === 408 ? null : `answered ${answer.status} ${answer.text.slice(0, 200)}`
    },
  }),
]
