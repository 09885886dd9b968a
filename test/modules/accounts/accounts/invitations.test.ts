import { describe, expect, it } from 'vitest'
import { client, useTestApp } from '../../../app.js'
import { useOrg } from '../../../factories.js'
import { linkToken, newPerson, tokenBody, userRow } from '../../../fixtures/accounts.js'

const t = useTestApp()
const org = useOrg(t)
const other = useOrg(t)
const anonymous = () => client(t.app)
const accept = (token: string, password = 'a good long password') =>
  anonymous().post(`/api/v1/auth/invitations/${token}/accept`, { password })

describe('invitations (DECISIONS §15)', () => {
  it('answers a user created without a password with a one-time link that lets them in', async () => {
    const person = newPerson()
    const created = await org.admin.api.post('/api/v1/shared/users', person)
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      id: expect.any(String),
      organizationId: org.id,
      ...person,
      state: 'pending',
      lastLogin: null,
      createdAt: expect.any(String),
      invitation: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:8000\/console\/invite\/[\w-]{43}$/), expiresAt: expect.any(String) },
    })
    const hours = (Date.parse(created.body.invitation.expiresAt) - Date.now()) / 3_600_000
    expect(hours).toBeGreaterThan(167)
    expect(hours).toBeLessThanOrEqual(168)

    const accepted = await accept(linkToken(created.body.invitation.url))
    expect(accepted.status).toBe(200)
    expect(accepted.body).toEqual(tokenBody())
    expect((await client(t.app, accepted.body.access_token).get('/api/v1/users/me')).body.user).toMatchObject({
      id: created.body.id,
      state: 'active',
    })
    expect(await userRow(t, created.body.id)).toMatchObject({ state: 'active', password_hash: expect.stringMatching(/^\$argon2id\$/) })
    const login = await anonymous().post('/api/v1/auth/token', { email: person.email, password: 'a good long password' })
    expect(login.status).toBe(200)

    const again = await accept(linkToken(created.body.invitation.url), 'another long password')
    expect(again.status).toBe(404)
    expect(again.body).toEqual({ detail: 'Invitation not found or expired' })
  })

  it('answers a user created with a password without an invitation', async () => {
    const created = await org.admin.api.post('/api/v1/shared/users', { ...newPerson(), password: 'a good long password' })
    expect(created.status).toBe(201)
    expect(created.body).not.toHaveProperty('invitation')
    expect(created.body.state).toBe('active')
  })

  it('re-issues a link (201, the same shape) and revokes the earlier ones', async () => {
    const created = await org.admin.api.post('/api/v1/shared/users', newPerson())
    const reissued = await org.admin.api.post(`/api/v1/shared/users/${created.body.id}/invitation`)
    expect(reissued.status).toBe(201)
    expect(reissued.body).toEqual({ url: expect.stringContaining('/console/invite/'), expiresAt: expect.any(String) })
    expect(reissued.body.url).not.toBe(created.body.invitation.url)
    const old = await accept(linkToken(created.body.invitation.url))
    expect(old.status).toBe(404)
    expect(old.body).toEqual({ detail: 'Invitation not found or expired' })
    expect(await userRow(t, created.body.id)).toMatchObject({ state: 'pending', password_hash: null })
    expect((await accept(linkToken(reissued.body.url))).status).toBe(200)
  })

  it('refuses an expired link, and an unknown one, with the same 404', async () => {
    const created = await org.admin.api.post('/api/v1/shared/users', newPerson())
    await t.database.db
      .updateTable('account_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', created.body.id)
      .execute()
    for (const token of [linkToken(created.body.invitation.url), 'no-such-token']) {
      const res = await accept(token)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ detail: 'Invitation not found or expired' })
    }
    expect(await userRow(t, created.body.id)).toMatchObject({ state: 'pending', password_hash: null })
  })

  it('checks the password: 10 to 200 characters (422), and the link still works after', async () => {
    const created = await org.admin.api.post('/api/v1/shared/users', newPerson())
    const token = linkToken(created.body.invitation.url)
    for (const password of ['too short', 'x'.repeat(201)]) {
      const res = await accept(token, password)
      expect(res.status).toBe(422)
      expect(res.body.detail).toEqual([{ loc: ['body', 'password'], msg: expect.any(String), type: expect.stringMatching(/^string_too_/) }])
    }
    expect((await accept(token, 'x'.repeat(200))).status).toBe(200)
  })

  it('is for pending users only (409), admins only (403), and another organization is a 404', async () => {
    const active = await org.addUser('crew')
    const refused = await org.admin.api.post(`/api/v1/shared/users/${active.id}/invitation`)
    expect(refused.status).toBe(409)
    expect(refused.body).toEqual({ detail: 'Only a pending user can be invited' })
    const pending = await org.admin.api.post('/api/v1/shared/users', newPerson())
    for (const caller of [org.officeAdmin, org.officeEmployee, org.crew]) {
      expect((await caller.api.post(`/api/v1/shared/users/${pending.body.id}/invitation`)).status).toBe(403)
    }
    const foreign = await other.admin.api.post(`/api/v1/shared/users/${pending.body.id}/invitation`)
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual({ detail: 'User not found' })
    // The original link survives every refused re-issue.
    expect((await accept(linkToken(pending.body.invitation.url))).status).toBe(200)
  })

  it('stops working when the user is suspended', async () => {
    const created = await org.admin.api.post('/api/v1/shared/users', newPerson())
    expect((await org.admin.api.delete(`/api/v1/shared/users/${created.body.id}`)).status).toBe(204)
    expect((await org.admin.api.patch(`/api/v1/shared/users/${created.body.id}`, { state: 'active' })).body.state).toBe('pending')
    const res = await accept(linkToken(created.body.invitation.url))
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ detail: 'Invitation not found or expired' })
  })

  it('keeps the token out of the audit trail: user.invited carries the expiry only', async () => {
    const created = await org.admin.api.post('/api/v1/shared/users', newPerson())
    const page = await org.admin.api.get(`/api/v1/shared/audit-events?target_id=${created.body.id}`)
    expect(page.body.items.map((event: { type: string }) => event.type)).toEqual(['user.invited', 'user.created'])
    expect(page.body.items[0].data).toEqual({ expiresAt: created.body.invitation.expiresAt })
    const stored = await t.database.db.selectFrom('account_links').select('token_hash').where('user_id', '=', created.body.id).execute()
    expect(stored).toEqual([{ token_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }])
    expect(JSON.stringify(stored)).not.toContain(linkToken(created.body.invitation.url))
  })
})
