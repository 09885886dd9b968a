import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, useOrg } from '../../../factories.js'
import { createCredential, lrs, XAPI } from '../../../fixtures/xapi.js'

const t = useTestApp()
const org = useOrg(t)
const BASE = `${XAPI}/credentials`

describe('LRS credentials', () => {
  it('creates a credential whose secret is shown once and kept only as a hash, lists and deletes it, each with its event', async () => {
    const res = await org.admin.api.post(BASE, { name: 'Bridge simulator', scopes: ['statements/write', 'statements/read/mine'] })
    expect(res.status).toBe(201)
    const { secret, ...credential } = res.body
    expect(credential).toEqual({
      id: expect.any(String),
      name: 'Bridge simulator',
      key: expect.stringMatching(/^[0-9a-f]{32}$/),
      scopes: ['statements/write', 'statements/read/mine'],
      createdAt: expect.any(String),
    })
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32)
    const row = await t.database.db.selectFrom('xapi_credentials').selectAll().where('id', '=', credential.id).executeTakeFirstOrThrow()
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(row)).not.toContain(secret)

    const list = await org.admin.api.get(`${BASE}?limit=1000`)
    expect(list.status).toBe(200)
    expect(list.body.items).toContainEqual(credential)
    expect(JSON.stringify(list.body)).not.toContain(secret)

    expect((await lrs(t.app, { key: credential.key, secret }).get('/statements')).status).toBe(200)
    expect((await org.admin.api.delete(`${BASE}/${credential.id}`)).status).toBe(204)
    // Refused from the next request on.
    expect((await lrs(t.app, { key: credential.key, secret }).get('/statements')).status).toBe(401)
    expect((await org.admin.api.get(`${BASE}?limit=1000`)).body.items).not.toContainEqual(credential)

    const events = await t.database.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('organization_id', '=', org.id)
      .where('target_id', '=', credential.id)
      .orderBy('occurred_at')
      .execute()
    expect(events).toEqual([
      { type: 'xapi_credential.created', data: credential },
      { type: 'xapi_credential.deleted', data: credential },
    ])
  })

  it('defaults the scopes to all and refuses unknown scopes and empty names with 422', async () => {
    expect((await createCredential(org)).scopes).toEqual(['all'])
    const bad = await org.admin.api.post(BASE, { name: '', scopes: ['everything'] })
    expect(bad.status).toBe(422)
    expect(bad.body.detail.map((issue: { loc: string[] }) => issue.loc)).toEqual([
      ['body', 'name'],
      ['body', 'scopes', 0],
    ])
  })

  it('is for admins only', async () => {
    for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
      expect((await user.api.post(BASE, { name: 'x' })).status).toBe(403)
      expect((await user.api.get(BASE)).status).toBe(403)
    }
  })

  it("answers another organization's credential with 404 and leaves it working", async () => {
    const other = await createOrg(t.app, t.database.db)
    const theirs = await createCredential(other)
    expect((await org.admin.api.delete(`${BASE}/${theirs.id}`)).status).toBe(404)
    expect((await org.admin.api.get(`${BASE}?limit=1000`)).body.items.map((c: { id: string }) => c.id)).not.toContain(theirs.id)
    expect((await lrs(t.app, theirs).get('/statements')).status).toBe(200)
  })

  it('refuses a wrong secret, an unknown key and no credentials with 401 and a Basic challenge', async () => {
    const credential = await createCredential(org)
    for (const caller of [
      lrs(t.app, { ...credential, secret: 'wrong' }),
      lrs(t.app, { key: 'nobody', secret: credential.secret }),
      lrs(t.app, null),
    ]) {
      const res = await caller.get('/statements')
      expect(res.status).toBe(401)
      expect(res.headers['www-authenticate']).toBe('Basic realm="xAPI"')
      expect(res.headers['x-experience-api-version']).toBe('1.0.3')
    }
  })
})
