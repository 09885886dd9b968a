import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildTestApp, client, type TestApp, useTestApp } from '../../../app.js'
import { PASSWORD, useOrg } from '../../../factories.js'
import { linkToken } from '../../../fixtures/accounts.js'

// DECISIONS §15, "Signing out ends the sign-in now": the instance that ends a sign-in refuses its
// access tokens at once; every other instance on the same database does so once the database's
// announcement reaches it.
const t = useTestApp()
const org = useOrg(t)
let other: TestApp
beforeAll(async () => {
  other = await buildTestApp()
})
afterAll(() => other.app.close())

interface Pair {
  access_token: string
  refresh_token: string
}

const ANNOUNCEMENT_BOUND_MS = 15_000

const anonymous = () => client(t.app)
async function signIn(email: string, password = PASSWORD): Promise<Pair> {
  const res = await anonymous().post('/api/v1/auth/token', { email, password })
  expect(res.status).toBe(200)
  return res.body
}
const refresh = (token: string) => anonymous().post('/api/v1/auth/token', { grant_type: 'refresh_token', refresh_token: token })
const meOn = async (instance: TestApp, pair: Pair) => (await client(instance.app, pair.access_token).get('/api/v1/users/me')).status

/** Both instances accept the token, so both hold its caller in their caches. */
async function warm(...pairs: Pair[]) {
  for (const pair of pairs) expect([await meOn(t, pair), await meOn(other, pair)]).toEqual([200, 200])
}

/**
 * The status the other instance settles on for the token. Asks until it comes; only the safety
 * timeout ends a wait for an announcement that never arrives. That timeout stays well inside the
 * actor cache's lifetime (60 s), so only the announcement can make the other instance refuse
 * (DECISIONS §15 promises 5 s; 15 s is a generous bound).
 */
const settledOnOther = (pair: Pair, expected: number) =>
  vi.waitFor(
    async () => {
      const status = await meOn(other, pair)
      if (status !== expected) throw new Error(`still ${status}`)
      return status
    },
    { timeout: ANNOUNCEMENT_BOUND_MS, interval: 20 },
  )

describe('ending a sign-in refuses its access tokens at once', () => {
  it('by logout, on this instance and on another, leaving the user’s other sign-ins alone', async () => {
    const user = await org.addUser('crew')
    const [ended, kept] = [await signIn(user.email), await signIn(user.email)]
    await warm(ended, kept)
    expect((await anonymous().post('/api/v1/auth/logout', { refresh_token: ended.refresh_token })).status).toBe(204)
    expect(await meOn(t, ended)).toBe(401)
    expect(await settledOnOther(ended, 401)).toBe(401)
    expect([await meOn(t, kept), await meOn(other, kept)]).toEqual([200, 200])
  })

  it('by logout on another instance', async () => {
    const user = await org.addUser('office_employee')
    const pair = await signIn(user.email)
    await warm(pair)
    expect((await client(other.app).post('/api/v1/auth/logout', { refresh_token: pair.refresh_token })).status).toBe(204)
    expect(await settledOnOther(pair, 401)).toBe(401)
    await vi.waitFor(
      async () => {
        if ((await meOn(t, pair)) !== 401) throw new Error('still accepted')
      },
      { timeout: ANNOUNCEMENT_BOUND_MS, interval: 20 },
    )
  })

  it('by refresh-token reuse: every access token of the sign-in, earlier and rotated', async () => {
    const user = await org.addUser('office_admin')
    const stolen = await signIn(user.email)
    const elsewhere = await signIn(user.email)
    const rotated = (await refresh(stolen.refresh_token)).body as Pair
    await warm(stolen, rotated, elsewhere)
    expect((await refresh(stolen.refresh_token)).status).toBe(401)
    expect([await meOn(t, stolen), await meOn(t, rotated)]).toEqual([401, 401])
    expect(await settledOnOther(stolen, 401)).toBe(401)
    expect(await settledOnOther(rotated, 401)).toBe(401)
    expect([await meOn(t, elsewhere), await meOn(other, elsewhere)]).toEqual([200, 200])
  })

  it('by a change of password: the other sign-ins end, the caller’s own goes on', async () => {
    const user = await org.addUser('crew')
    const [own, elsewhere] = [await signIn(user.email), await signIn(user.email)]
    await warm(own, elsewhere)
    const changed = await client(t.app, own.access_token).post('/api/v1/users/me/password', {
      currentPassword: PASSWORD,
      newPassword: 'another long password',
    })
    expect(changed.status).toBe(204)
    expect(await meOn(t, elsewhere)).toBe(401)
    expect(await settledOnOther(elsewhere, 401)).toBe(401)
    expect([await meOn(t, own), await meOn(other, own)]).toEqual([200, 200])
  })

  it('by a password reset', async () => {
    const user = await org.addUser('office_employee')
    const before = await signIn(user.email)
    await warm(before)
    const issued = await org.admin.api.post(`/api/v1/shared/users/${user.id}/password-reset`)
    const accepted = await anonymous().post(`/api/v1/auth/password-resets/${linkToken(issued.body.url)}/accept`, {
      password: 'a fresh long password',
    })
    expect(accepted.status).toBe(200)
    expect(await meOn(t, before)).toBe(401)
    expect(await settledOnOther(before, 401)).toBe(401)
    expect(await meOn(other, accepted.body)).toBe(200)
  })

  it('by a suspension', async () => {
    const user = await org.addUser('crew')
    const pair = await signIn(user.email)
    await warm(pair)
    expect((await org.admin.api.delete(`/api/v1/shared/users/${user.id}`)).status).toBe(204)
    expect(await meOn(t, pair)).toBe(401)
    expect(await settledOnOther(pair, 401)).toBe(401)
  })

  it('on an instance started afterwards, though the user’s other sign-in is cached there', async () => {
    const user = await org.addUser('crew')
    const [ended, kept] = [await signIn(user.email), await signIn(user.email)]
    expect((await anonymous().post('/api/v1/auth/logout', { refresh_token: ended.refresh_token })).status).toBe(204)
    const late = await buildTestApp()
    try {
      expect(await meOn(late, kept)).toBe(200)
      expect(await meOn(late, ended)).toBe(401)
    } finally {
      await late.app.close()
    }
  })
})
