import { describe, expect, it } from 'vitest'
import { client, useTestApp } from '../../../app.js'
import { PASSWORD, useOrg } from '../../../factories.js'
import { linkToken, newPerson, tokenBody, userRow } from '../../../fixtures/accounts.js'

const t = useTestApp()
const org = useOrg(t)
const other = useOrg(t)
const anonymous = () => client(t.app)
const signIn = (email: string, password = PASSWORD) => anonymous().post('/api/v1/auth/token', { email, password })
const refresh = (token: string) => anonymous().post('/api/v1/auth/token', { grant_type: 'refresh_token', refresh_token: token })
const acceptReset = (token: string, password = 'a fresh long password') =>
  anonymous().post(`/api/v1/auth/password-resets/${token}/accept`, { password })

describe('password reset by an admin (DECISIONS §15)', () => {
  it('answers a one-time link valid 24 hours; accepting it sets the password, signs in, and ends every earlier token', async () => {
    const user = await org.addUser('office_employee')
    const before = (await signIn(user.email)).body
    const issued = await org.admin.api.post(`/api/v1/shared/users/${user.id}/password-reset`)
    expect(issued.status).toBe(201)
    expect(issued.body).toEqual({ url: expect.stringMatching(/\/console\/reset\/[\w-]{43}$/), expiresAt: expect.any(String) })
    const hours = (Date.parse(issued.body.expiresAt) - Date.now()) / 3_600_000
    expect(hours).toBeGreaterThan(23.9)
    expect(hours).toBeLessThanOrEqual(24)

    const accepted = await acceptReset(linkToken(issued.body.url))
    expect(accepted.status).toBe(200)
    expect(accepted.body).toEqual(tokenBody())
    expect((await client(t.app, accepted.body.access_token).get('/api/v1/users/me')).status).toBe(200)
    expect((await client(t.app, before.access_token).get('/api/v1/users/me')).status).toBe(401)
    expect((await client(t.app, user.token).get('/api/v1/users/me')).status).toBe(401)
    expect((await refresh(before.refresh_token)).status).toBe(401)
    expect((await signIn(user.email)).status).toBe(401)
    expect((await signIn(user.email, 'a fresh long password')).status).toBe(200)
    const again = await acceptReset(linkToken(issued.body.url))
    expect(again.status).toBe(404)
    expect(again.body).toEqual({ detail: 'Password reset not found or expired' })
  })

  it('revokes the earlier reset links when a new one is issued', async () => {
    const user = await org.addUser('crew')
    const first = await org.admin.api.post(`/api/v1/shared/users/${user.id}/password-reset`)
    const second = await org.admin.api.post(`/api/v1/shared/users/${user.id}/password-reset`)
    expect((await acceptReset(linkToken(first.body.url))).status).toBe(404)
    expect((await acceptReset(linkToken(second.body.url))).status).toBe(200)
  })

  it('lets a pending user in too, refuses a suspended one (409), admins only, own organization only', async () => {
    const pending = await org.admin.api.post('/api/v1/shared/users', newPerson())
    const issued = await org.admin.api.post(`/api/v1/shared/users/${pending.body.id}/password-reset`)
    expect((await acceptReset(linkToken(issued.body.url))).status).toBe(200)
    expect(await userRow(t, pending.body.id)).toMatchObject({ state: 'active' })

    const suspended = await org.addUser('crew')
    expect((await org.admin.api.delete(`/api/v1/shared/users/${suspended.id}`)).status).toBe(204)
    const refused = await org.admin.api.post(`/api/v1/shared/users/${suspended.id}/password-reset`)
    expect(refused.status).toBe(409)
    expect(refused.body).toEqual({ detail: 'A suspended user cannot reset their password' })
    for (const caller of [org.officeAdmin, org.officeEmployee, org.crew]) {
      expect((await caller.api.post(`/api/v1/shared/users/${org.crew.id}/password-reset`)).status).toBe(403)
    }
    expect((await other.admin.api.post(`/api/v1/shared/users/${org.crew.id}/password-reset`)).status).toBe(404)
  })

  it('a link of a user suspended after it was issued no longer works', async () => {
    const user = await org.addUser('crew')
    const issued = await org.admin.api.post(`/api/v1/shared/users/${user.id}/password-reset`)
    expect((await org.admin.api.delete(`/api/v1/shared/users/${user.id}`)).status).toBe(204)
    expect((await acceptReset(linkToken(issued.body.url))).status).toBe(404)
    const { password_hash } = await userRow(t, user.id)
    expect(password_hash).not.toBeNull()
    expect((await signIn(user.email)).status).toBe(401)
  })
})

describe('own password (DECISIONS §15)', () => {
  it('every role changes their own (204), keeping this sign-in and ending the others', async () => {
    for (const role of ['admin', 'office_admin', 'office_employee', 'crew'] as const) {
      const user = await org.addUser(role)
      const mine = (await signIn(user.email)).body
      const elsewhere = (await signIn(user.email)).body
      const res = await client(t.app, mine.access_token).post('/api/v1/users/me/password', {
        currentPassword: PASSWORD,
        newPassword: 'my own new password',
      })
      expect(res.status, role).toBe(204)
      expect((await refresh(elsewhere.refresh_token)).status).toBe(401)
      expect((await refresh(mine.refresh_token)).status).toBe(200)
      expect((await signIn(user.email)).status).toBe(401)
      expect((await signIn(user.email, 'my own new password')).status).toBe(200)
    }
  })

  it('answers at /api/v1/shared/users/me/password too', async () => {
    const user = await org.addUser('crew')
    const res = await user.api.post('/api/v1/shared/users/me/password', { currentPassword: PASSWORD, newPassword: 'another new password' })
    expect(res.status).toBe(204)
  })

  it('refuses a wrong current password (422 at currentPassword) and a new one out of 10–200 characters, changing nothing', async () => {
    const user = await org.addUser('crew')
    const wrong = await user.api.post('/api/v1/users/me/password', {
      currentPassword: 'not my password',
      newPassword: 'my own new password',
    })
    expect(wrong.status).toBe(422)
    expect(wrong.body).toEqual({
      detail: [{ loc: ['body', 'currentPassword'], msg: 'Current password is incorrect', type: 'value_error' }],
    })
    const short = await user.api.post('/api/v1/users/me/password', { currentPassword: PASSWORD, newPassword: 'short' })
    expect(short.status).toBe(422)
    expect(short.body.detail).toEqual([{ loc: ['body', 'newPassword'], msg: expect.any(String), type: 'string_too_short' }])
    expect((await signIn(user.email)).status).toBe(200)
  })

  it('needs a signed-in caller (401)', async () => {
    const res = await anonymous().post('/api/v1/users/me/password', { currentPassword: PASSWORD, newPassword: 'my own new password' })
    expect(res.status).toBe(401)
  })

  it('writes auth.password_set with how, never the password', async () => {
    const user = await org.addUser('crew')
    await user.api.post('/api/v1/users/me/password', { currentPassword: PASSWORD, newPassword: 'audited new password' })
    const page = await org.admin.api.get(`/api/v1/shared/audit-events?type=auth.password_set&target_id=${user.id}`)
    expect(page.body.items).toEqual([
      expect.objectContaining({ actor: { userId: user.id, role: 'crew' }, target: { type: 'user', id: user.id }, data: { via: 'change' } }),
    ])
  })
})
