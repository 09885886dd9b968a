import { sql } from 'kysely'
import { describe, expect, it, vi } from 'vitest'
import { type Client, useTestApp } from './app.js'
import { createOrg, useOrg } from './factories.js'

const t = useTestApp()
const org = useOrg(t)

/**
 * The status the API settles on: changes made behind the app's back arrive as database
 * announcements, whenever the machine gets to them. Asks until the expected status comes; only the
 * test timeout (a safety net) ends a wait for an announcement that never arrives.
 */
function settledStatus(api: Client, url: string, expected: number): Promise<number> {
  return vi.waitFor(
    async () => {
      const { status } = await api.get(url)
      if (status !== expected) throw new Error(`still ${status}`)
      return status
    },
    { timeout: 100_000, interval: 20 },
  )
}

// Callers are cached between requests; these changes bypass the API (like the CLI or an operator's
// SQL would), so only the database's announcements can tell the app.
describe('the cached caller', () => {
  it('is dropped when the user is suspended outside the API', async () => {
    const user = await org.addUser('office_employee')
    expect((await user.api.get('/api/v1/users/me')).status).toBe(200)
    await sql`update users set state = 'suspended' where id = ${user.id}`.execute(t.database.db)
    expect(await settledStatus(user.api, '/api/v1/users/me', 401)).toBe(401)
  })

  it('follows a role change made outside the API', async () => {
    const user = await org.addUser('admin')
    expect((await user.api.get('/api/v1/learn/admin/analytics/course-difficulty')).status).toBe(200)
    await sql`update users set role = 'crew' where id = ${user.id}`.execute(t.database.db)
    expect(await settledStatus(user.api, '/api/v1/learn/admin/analytics/course-difficulty', 403)).toBe(403)
  })

  it("follows a change of the organization's products", async () => {
    const other = await createOrg(t.app, t.database.db)
    expect((await other.crew.api.get('/api/v1/courses/')).status).toBe(200)
    await sql`update organizations set products = array['crew'] where id = ${other.id}`.execute(t.database.db)
    expect(await settledStatus(other.crew.api, '/api/v1/courses/', 403)).toBe(403)
  })

  it('applies a suspension through the API at once, with no wait', async () => {
    const user = await org.addUser('crew')
    expect((await user.api.get('/api/v1/users/me')).status).toBe(200)
    expect((await org.admin.api.delete(`/api/v1/shared/users/${user.id}`)).status).toBe(204)
    expect((await user.api.get('/api/v1/users/me')).status).toBe(401)
  })
})
