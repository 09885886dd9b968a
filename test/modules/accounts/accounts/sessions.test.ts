import { describe, expect, it } from 'vitest'
import { client, useTestApp } from '../../../app.js'
import { PASSWORD, useOrg } from '../../../factories.js'
import { tokenBody } from '../../../fixtures/accounts.js'

const t = useTestApp()
const org = useOrg(t)
const anonymous = () => client(t.app)
const signIn = async (email: string, password = PASSWORD) => {
  const res = await anonymous().post('/api/v1/auth/token', { email, password })
  expect(res.status).toBe(200)
  return res.body as { access_token: string; refresh_token: string }
}
const refresh = (token: string) => anonymous().post('/api/v1/auth/token', { grant_type: 'refresh_token', refresh_token: token })
const refreshByForm = (token: string) =>
  anonymous().post('/api/v1/auth/token', new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString(), {
    'content-type': 'application/x-www-form-urlencoded',
  })
const INVALID = { detail: 'Invalid refresh token' }

describe('refresh tokens (DECISIONS §15)', () => {
  it('trade for a new pair, by JSON or form; the old one is spent; stored only as hashes', async () => {
    const user = await org.addUser('crew')
    const first = await signIn(user.email)
    const second = await refresh(first.refresh_token)
    expect(second.status).toBe(200)
    expect(second.body).toEqual(tokenBody())
    expect(second.body.refresh_token).not.toBe(first.refresh_token)
    expect((await client(t.app, second.body.access_token).get('/api/v1/users/me')).status).toBe(200)
    const third = await refreshByForm(second.body.refresh_token)
    expect(third.status).toBe(200)
    const rows = await t.database.db.selectFrom('refresh_tokens').selectAll().where('user_id', '=', user.id).orderBy('created_at').execute()
    expect(rows).toHaveLength(3)
    expect(new Set(rows.map((row) => row.family_id)).size).toBe(1)
    expect(rows.map((row) => row.spent_at !== null)).toEqual([true, true, false])
    expect(JSON.stringify(rows)).not.toContain(third.body.refresh_token)
  })

  it('detect reuse: a spent token revokes every token of its sign-in, and only that sign-in', async () => {
    const user = await org.addUser('office_employee')
    const stolen = await signIn(user.email)
    const elsewhere = await signIn(user.email)
    const rotated = await refresh(stolen.refresh_token)
    expect(rotated.status).toBe(200)
    const reused = await refresh(stolen.refresh_token)
    expect(reused.status).toBe(401)
    expect(reused.body).toEqual(INVALID)
    const descendant = await refresh(rotated.body.refresh_token)
    expect(descendant.status).toBe(401)
    expect(descendant.body).toEqual(INVALID)
    expect((await refresh(elsewhere.refresh_token)).status).toBe(200)
    const events = await org.admin.api.get(`/api/v1/shared/audit-events?type=auth.refresh_reused&target_id=${user.id}`)
    expect(events.body.items).toEqual([expect.objectContaining({ actor: null, target: { type: 'user', id: user.id }, data: {} })])
  })

  it('refuse an unknown, expired or revoked token with the same 401', async () => {
    const user = await org.addUser('crew')
    const expired = await signIn(user.email)
    await t.database.db
      .updateTable('refresh_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.id)
      .execute()
    const revoked = await signIn(user.email)
    expect((await anonymous().post('/api/v1/auth/logout', { refresh_token: revoked.refresh_token })).status).toBe(204)
    for (const token of ['not-a-token', expired.refresh_token, revoked.refresh_token]) {
      const res = await refresh(token)
      expect(res.status).toBe(401)
      expect(res.body).toEqual(INVALID)
    }
  })

  it('refuse any unknown token with the same 401 whatever its length or shape, an access token included', async () => {
    const user = await org.addUser('crew')
    const pair = await signIn(user.email)
    for (const token of [pair.access_token, '', 'x'.repeat(10_000), '{"a":1}']) {
      for (const res of [
        await refresh(token),
        await refreshByForm(token),
        await anonymous().post('/api/v1/auth/logout', { refresh_token: token }),
      ]) {
        expect(res.status).toBe(401)
        expect(res.body).toEqual(INVALID)
      }
    }
    expect((await refresh(pair.refresh_token)).status).toBe(200)
  })

  it('carry their sign-in in every access token of it', async () => {
    const user = await org.addUser('crew')
    const first = await signIn(user.email)
    const second = (await refresh(first.refresh_token)).body
    const sid = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid
    const row = await t.database.db
      .selectFrom('refresh_tokens')
      .select('family_id')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect([sid(first.access_token), sid(second.access_token)]).toEqual([row.family_id, row.family_id])
  })

  it('last REFRESH_TOKEN_TTL_DAYS', async () => {
    const user = await org.addUser('crew')
    await signIn(user.email)
    const row = await t.database.db
      .selectFrom('refresh_tokens')
      .select('expires_at')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    const days = (row.expires_at.getTime() - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29.9)
    expect(days).toBeLessThanOrEqual(30)
  })

  it('need the refresh_token field with the refresh grant (422)', async () => {
    const res = await anonymous().post('/api/v1/auth/token', { grant_type: 'refresh_token' })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([{ loc: ['body', 'refresh_token'], msg: 'Field required', type: 'missing' }])
  })

  it('are never accepted as a bearer token', async () => {
    const user = await org.addUser('admin')
    const pair = await signIn(user.email)
    const res = await client(t.app, pair.refresh_token).get('/api/v1/users/me')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ detail: 'Could not validate credentials' })
  })

  it('end with logout (204); a second logout is a 401', async () => {
    const user = await org.addUser('crew')
    const pair = await signIn(user.email)
    expect((await anonymous().post('/api/v1/auth/logout', { refresh_token: pair.refresh_token })).status).toBe(204)
    const row = await t.database.db
      .selectFrom('refresh_tokens')
      .select('revoked_at')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(row.revoked_at).toBeInstanceOf(Date)
    expect((await refresh(pair.refresh_token)).status).toBe(401)
    const again = await anonymous().post('/api/v1/auth/logout', { refresh_token: pair.refresh_token })
    expect(again.status).toBe(401)
    expect(again.body).toEqual(INVALID)
  })

  it('all end when the user is suspended, and stay ended when restored', async () => {
    const user = await org.addUser('office_employee')
    const pairs = [await signIn(user.email), await signIn(user.email)]
    expect((await org.admin.api.delete(`/api/v1/shared/users/${user.id}`)).status).toBe(204)
    expect((await org.admin.api.patch(`/api/v1/shared/users/${user.id}`, { state: 'active' })).status).toBe(200)
    for (const pair of pairs) expect((await refresh(pair.refresh_token)).status).toBe(401)
    const live = await t.database.db
      .selectFrom('refresh_tokens')
      .select('id')
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .execute()
    expect(live).toEqual([])
  })
})
