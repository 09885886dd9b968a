import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { BULK_AT_ONCE } from '../../../../src/modules/crew/assignments/bulk.routes.js'
import { client, useTestApp } from '../../../app.js'
import { useOrg } from '../../../factories.js'
import { addAssignment, addShip } from '../../../fixtures/sea-service.js'
import { parsePrometheusText } from '../../../prometheus.js'

// Bulk writes take their turn (bulk.routes.ts): at most BULK_AT_ONCE run at once per process, the others wait in
// order without holding a pooled connection. PostgreSQL only: the embedded engine runs one transaction at a time,
// so a write cannot be held mid-way while others arrive.
const url = process.env.TEST_DATABASE_URL
const TOKEN = 'metrics-token-bulk-turns-0123'

describe.skipIf(!url)('bulk writes at once', () => {
  const t = useTestApp({ METRICS_TOKEN: TOKEN })
  const org = useOrg(t)

  async function bulkOperations() {
    const res = await client(t.app).get('/metrics', { authorization: `Bearer ${TOKEN}` })
    const samples = parsePrometheusText(res.text).get('bulk_operations')?.samples ?? []
    return Object.fromEntries(samples.map((sample) => [sample.labels.state, sample.value]))
  }

  it(`runs ${BULK_AT_ONCE} of a process at once; the others wait their turn and then run`, async () => {
    const ship = await addShip(org)
    const id = await addAssignment(org, org.crew, ship.id, { role: 'Cook' })
    // Another session holds the assignment's row: each bulk write that runs stops there, holding its connection.
    const holder = new pg.Client({ connectionString: url })
    await holder.connect()
    try {
      await holder.query('begin')
      await holder.query('select id from assignments where id = $1 for update', [id])
      const sent = BULK_AT_ONCE + 2
      const writes = Array.from({ length: sent }, (_, n) =>
        org.admin.api.post('/api/v1/learn/assignments/bulk/update', { assignmentIds: [id], role: `Cook ${n}` }),
      )
      await expect.poll(bulkOperations, { timeout: 30_000 }).toEqual({ running: BULK_AT_ONCE, waiting: 2 })
      await holder.query('commit')
      expect((await Promise.all(writes)).map((res) => [res.status, res.body.updatedCount])).toEqual(Array(sent).fill([200, 1]))
      expect(await bulkOperations()).toEqual({ running: 0, waiting: 0 })
    } finally {
      await holder.end()
    }
  })
})
