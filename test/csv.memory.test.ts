import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createShip } from './fixtures/assignments.js'
import { useTestApp } from './app.js'
import { useOrg } from './factories.js'

// A full collection makes heap figures comparable: what is still reachable, not what the collector has not reached yet.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const ROWS = 100_000
const SAMPLES = 5

/** The heap still in use after a full collection. */
function liveHeap(): number {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

describe('a CSV export of 100,000 rows', { timeout: 600_000 }, () => {
  // An app of its own, served over a real socket: the client reads the stream as it comes and keeps none of it.
  const t = useTestApp({ LOG_LEVEL: 'silent' })
  const org = useOrg(t)
  afterAll(() => t.database.db.deleteFrom('assignments').where('organization_id', '=', org.id).execute())

  it("streams in constant memory: the server's heap does not grow with the rows", async () => {
    const ship = await createShip(org)
    // One statement: 100,000 ended contracts of the crew member on one ship (ended, so none is active).
    await sql`
      insert into assignments (id, organization_id, user_id, ship_id, role, start_date, end_date)
      select gen_random_uuid(), ${org.id}, ${org.crew.id}, ${ship.id}, 'Deckhand ' || i, date '2020-01-01', date '2020-02-01'
      from generate_series(1, ${ROWS}) as i`.execute(t.database.db)
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    const { port } = t.app.server.address() as AddressInfo

    const baseline = liveHeap()
    const growth: number[] = []
    let bytes = 0
    let lines = 0
    await new Promise<void>((resolve, reject) => {
      const get = request({
        host: '127.0.0.1',
        port,
        path: '/api/v1/assignments/?format=csv',
        headers: { authorization: `Bearer ${org.admin.token}` },
      })
      get.on('error', reject)
      get.on('response', (response) => {
        expect(response.statusCode).toBe(200)
        response.on('error', reject)
        response.on('end', resolve)
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length
          for (const byte of chunk) if (byte === 10) lines++
          // At each fifth of the rows, with the stream paused: what the server holds right now.
          if (growth.length < SAMPLES && lines >= ((growth.length + 1) * ROWS) / (SAMPLES + 1)) {
            response.pause()
            growth.push(liveHeap() - baseline)
            response.resume()
          }
        })
      })
      get.end()
    })

    expect(lines).toBe(ROWS + 1)
    expect(growth).toHaveLength(SAMPLES)
    // The export is tens of megabytes; holding its rows (as objects or as text) would grow the heap by
    // more than that, before the first byte or as they go. Streamed, the server holds one batch of
    // 1000 rows at a time: a few megabytes, the same at the last fifth as at the first.
    expect(bytes).toBeGreaterThan(20 * 1024 * 1024)
    expect(Math.max(...growth)).toBeLessThan(bytes / 4)
    expect(growth[SAMPLES - 1] - growth[0]).toBeLessThan(bytes / 20)
  })
})
