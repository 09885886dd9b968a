import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { useOrg } from '../../../factories.js'

// PostgreSQL only: the embedded engine runs one transaction at a time.
const url = process.env.TEST_DATABASE_URL

describe.skipIf(!url)('the sea-service refresh locks (migration 3001)', () => {
  const t = useTestApp()
  const org = useOrg(t)

  /** Two sessions of their own: one holds a refresh's locks open while the other tries its own. */
  async function sessions() {
    const [holder, other] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })]
    await Promise.all([holder.connect(), other.connect()])
    await other.query(`set lock_timeout = '300ms'`)
    return { holder, other, end: () => Promise.all([holder.end(), other.end()]) }
  }

  const refresh = (client: pg.Client, people: string[]) => client.query('select sea_service_refresh($1::uuid[])', [people])

  it('lets refreshes of different people of one organization run side by side, and queues a second refresh of one person', async () => {
    const { holder, other, end } = await sessions()
    try {
      await holder.query('begin')
      await refresh(holder, [org.crew.id])
      // Another person of the organization: not held up by the open refresh.
      await expect(refresh(other, [org.officeEmployee.id])).resolves.toBeDefined()
      // The same person: waits for the open refresh's commit (here past the lock timeout).
      await expect(refresh(other, [org.crew.id])).rejects.toMatchObject({ code: '55P03' })
      // A refresh of many people takes the organization's lock whole: it waits for the few-people one too.
      const many = [org.officeEmployee.id, ...Array.from({ length: 100 }, () => randomUUID())]
      await expect(refresh(other, many)).rejects.toMatchObject({ code: '55P03' })
      await holder.query('commit')
      await expect(refresh(other, [org.crew.id])).resolves.toBeDefined()
    } finally {
      await end()
    }
  })
})
