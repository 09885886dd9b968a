import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, nextImo, useOrg } from '../../../factories.js'

const t = useTestApp()
const org = useOrg(t)
const AUDIT = '/api/v1/shared/audit-events'

const createShip = (requestId: string, imoNumber = nextImo()) =>
  org.admin.api.post('/api/v1/shared/ships', { name: 'MV Audit', imoNumber }, { 'x-request-id': requestId })

const list = async (query = '') => {
  const res = await org.admin.api.get(`${AUDIT}?limit=1000${query}`)
  expect(res.status).toBe(200)
  return res.body
}

describe('GET /api/v1/shared/audit-events (DECISIONS §11)', () => {
  it('lists newest first with the cursor envelope; pages never repeat or skip', async () => {
    const ships = []
    for (let i = 0; i < 5; i++) ships.push((await createShip(`page-${i}`)).body)
    const all = (await list('&type=ship.created')).items
    expect(all.slice(0, 5).map((e: any) => e.target.id)).toEqual(ships.map((s) => s.id).reverse())
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const res: any = await org.officeAdmin.api.get(
        `${AUDIT}?type=ship.created&limit=2&include_count=true${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(res.status).toBe(200)
      expect(res.body.totalCount).toBe(all.length)
      seen.push(...res.body.items.map((e: any) => e.id))
      cursor = res.body.nextCursor
      expect(res.body.hasMore).toBe(cursor !== null)
    } while (cursor)
    expect(seen).toEqual(all.map((e: any) => e.id))
  })

  it('filters by type (list and prefix.*), target, actor and time range', async () => {
    const ship = (await createShip('filters-create')).body
    await org.admin.api.patch(`/api/v1/shared/ships/${ship.id}`, { flag: 'Malta' })
    const byTarget = (await list(`&target_id=${ship.id}`)).items
    expect(byTarget.map((e: any) => e.type)).toEqual(['ship.updated', 'ship.created'])
    expect((await list(`&target_id=${ship.id}&type=ship.*`)).items).toEqual(byTarget)
    expect((await list(`&target_id=${ship.id}&type=ship.deleted,ship.created`)).items).toEqual([byTarget[1]])
    expect((await list(`&target_id=${ship.id}&type=user.*`)).items).toEqual([])
    expect((await list(`&target_id=${ship.id}&actor_id=${org.admin.id}`)).items).toEqual(byTarget)
    expect((await list(`&target_id=${ship.id}&actor_id=${org.officeAdmin.id}`)).items).toEqual([])
    const [updated, created] = byTarget
    const at = (iso: string) => encodeURIComponent(iso)
    // `from` is inclusive, `to` exclusive.
    expect((await list(`&target_id=${ship.id}&from=${at(updated.occurredAt)}`)).items.map((e: any) => e.id)).toContain(updated.id)
    expect((await list(`&target_id=${ship.id}&to=${at(created.occurredAt)}`)).items).toEqual([])
    const later = new Date(Date.parse(updated.occurredAt) + 1).toISOString()
    expect((await list(`&target_id=${ship.id}&from=${at(created.occurredAt)}&to=${at(later)}`)).items).toEqual(byTarget)
  })

  it('exports every matching event as CSV (format=csv or Accept: text/csv), filters applied, nested values as JSON', async () => {
    const ship = (await createShip('csv-1')).body
    await org.admin.api.patch(`/api/v1/shared/ships/${ship.id}`, { name: '=MV Formula' }, { 'x-request-id': 'csv-2' })
    const json = (await list(`&target_id=${ship.id}`)).items
    for (const res of [
      await org.admin.api.get(`${AUDIT}?target_id=${ship.id}&format=csv&limit=1`),
      await org.admin.api.get(`${AUDIT}?target_id=${ship.id}&limit=1`, { accept: 'text/csv' }),
    ]) {
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/csv/)
      const lines = res.text.trimEnd().split('\r\n')
      expect(lines[0]).toBe(
        'id,type,occurredAt,organizationId,actor,target,data,requestId,actorName,personId,personName,targetKind,targetName',
      )
      // Every match despite limit=1, newest first, as the JSON list orders them.
      expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(json.map((e: any) => e.id))
      expect(lines[1]).toContain('ship.updated')
      expect(lines[1]).toContain('csv-2')
      expect(lines[1]).toMatch(/,Test admin,,,,'=MV Formula$/)
      expect(lines[1]).toContain(`""id"":""${ship.id}""`)
    }
    expect((await org.crew.api.get(`${AUDIT}?format=csv`)).status).toBe(403)
  })

  it('refuses bad filters with a 422 at the parameter', async () => {
    const cases: [string, (string | number)[]][] = [
      ['type=ship.sunk', ['query', 'type']],
      ['type=ship.created,nothing.*', ['query', 'type']],
      ['type=*', ['query', 'type']],
      ['target_id=not-a-uuid', ['query', 'target_id']],
      ['actor_id=123', ['query', 'actor_id']],
      ['from=yesterday', ['query', 'from']],
      ['to=2026-13-01T00:00:00Z', ['query', 'to']],
      ['cursor=bogus', ['query', 'cursor']],
      ['limit=0', ['query', 'limit']],
    ]
    for (const [query, loc] of cases) {
      const res = await org.admin.api.get(`${AUDIT}?${query}`)
      expect({ query, status: res.status, loc: res.body.detail?.[0]?.loc }).toEqual({ query, status: 422, loc })
      expect(res.body.detail[0]).toEqual({ loc, msg: expect.any(String), type: expect.any(String) })
    }
  })

  it('is for admins and office admins only (403 for the others)', async () => {
    for (const user of [org.officeEmployee, org.crew]) {
      const res = await user.api.get(AUDIT)
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ detail: expect.any(String) })
    }
  })

  it("never shows another organization's events", async () => {
    const other = await createOrg(t.app, t.database.db)
    const ship = (await createShip('tenancy')).body
    expect((await other.admin.api.get(`${AUDIT}?target_id=${ship.id}`)).body.items).toEqual([])
    const theirs = (await other.admin.api.get(`${AUDIT}?limit=1000`)).body.items
    expect(theirs.filter((e: any) => e.organizationId !== other.id)).toEqual([])
    expect((await list(`&target_id=${ship.id}`)).items).toHaveLength(1)
  })

  it('a refused or failed write leaves no event', async () => {
    const imoNumber = nextImo()
    expect((await createShip('first', imoNumber)).status).toBe(201)
    expect((await createShip('duplicate-imo', imoNumber)).status).toBe(409)
    const bad = await org.admin.api.post('/api/v1/shared/ships', { name: '', imoNumber: 'x' }, { 'x-request-id': 'invalid-ship' })
    expect(bad.status).toBe(422)
    const assignment = await org.admin.api.post(
      '/api/v1/assignments/',
      {
        userId: org.crew.id,
        shipId: (await createShip('ship-for-dates')).body.id,
        role: 'Cook',
        startDate: '2026-02-01',
        endDate: '2026-01-01',
      },
      { 'x-request-id': 'bad-dates' },
    )
    expect(assignment.status).toBe(422)
    const requestIds = new Set((await list()).items.map((e: any) => e.requestId))
    expect(['duplicate-imo', 'invalid-ship', 'bad-dates'].filter((id) => requestIds.has(id))).toEqual([])
    expect(requestIds.has('first')).toBe(true)
  })

  it('gives every event of a bulk operation the request id', async () => {
    const ship = (await createShip('bulk-ship')).body
    const users = await Promise.all([org.addUser('crew'), org.addUser('crew'), org.addUser('crew')])
    const res = await org.admin.api.post(
      '/api/v1/learn/assignments/bulk/create',
      { userIds: users.map((u) => u.id), shipId: ship.id, role: 'Cook' },
      { 'x-request-id': 'bulk-create-1' },
    )
    expect(res.status).toBe(200)
    const events = (await list('&type=assignment.created')).items.filter((e: any) => e.requestId === 'bulk-create-1')
    expect(events.map((e: any) => e.data).sort((a: any, b: any) => a.id.localeCompare(b.id))).toEqual(
      [...res.body.assignments].sort((a: any, b: any) => a.id.localeCompare(b.id)),
    )
  })

  it('never carries a secret: passwords, their hashes, the SSO client secret', async () => {
    const password = 'a password nobody may read'
    const user = await org.admin.api.post(
      '/api/v1/shared/users',
      { email: `secret-${Date.now()}@example.test`, firstName: 'Sec', lastName: 'Ret', role: 'crew', password },
      { 'x-request-id': 'secret-user' },
    )
    expect(user.status).toBe(201)
    const changed = await org.admin.api.patch(
      `/api/v1/shared/users/${user.body.id}`,
      { password: `${password} 2` },
      { 'x-request-id': 'secret-pw' },
    )
    expect(changed.status).toBe(200)
    const sso = { issuer: 'https://idp.example.test', clientId: 'web', clientSecret: 'client-secret-value' }
    expect((await org.admin.api.put('/api/v1/shared/organization/sso', sso, { 'x-request-id': 'secret-sso' })).status).toBe(200)
    const events = (await list()).items.filter((e: any) => ['secret-user', 'secret-pw', 'secret-sso'].includes(e.requestId))
    expect(events.map((e: any) => e.type).sort()).toEqual(['organization.updated', 'user.created', 'user.updated'])
    expect(events.find((e: any) => e.type === 'user.updated').data).toEqual({ changes: {}, passwordSet: true })
    expect(events.find((e: any) => e.type === 'organization.updated').data.changes.sso[1]).toMatchObject({ hasClientSecret: true })
    const text = JSON.stringify(events)
    for (const secret of [password, 'client-secret-value', '$argon2', 'hash']) expect(text).not.toContain(secret)
  })
})
