import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, client, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { browseProvider, CALLBACK, TestProvider, WEB_CLIENT } from '../../../fixtures/sso-provider.js'

let t: TestApp
let idp: TestProvider
beforeAll(async () => {
  t = await buildTestApp({ SSO_ALLOW_HTTP: '1' })
  idp = await TestProvider.start()
})
afterAll(async () => {
  await t.app.close()
  await idp.close()
})

const APP = 'https://app.example.test/signed-in'
const MOBILE = 'com.example.crew:/sso'
const DENIED = `${APP}#error=access_denied`

interface Setup {
  org: TestOrg
  domain: string
}

/** An organization with a domain and single sign-on through the test provider's web client. */
async function ssoOrg(settings: Record<string, unknown> = {}): Promise<Setup> {
  const org = await createOrg(t.app, t.database.db)
  const domain = `line-${randomUUID()}.example.test`
  await t.database.db.updateTable('organizations').set({ domain }).where('id', '=', org.id).execute()
  const res = await org.admin.api.put('/api/v1/shared/organization/sso', {
    issuer: idp.issuer,
    clientId: WEB_CLIENT.id,
    clientSecret: WEB_CLIENT.secret,
    redirectUris: [APP, MOBILE],
    ...settings,
  })
  expect(res.status).toBe(200)
  return { org, domain }
}

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} })
const loginUrl = (domain: string, redirectUri = APP) => `/api/v1/auth/sso/${domain}/login?redirect_uri=${encodeURIComponent(redirectUri)}`
const userRow = (email: string) =>
  t.database.db.selectFrom('users').selectAll().where(sql`lower(email)`, '=', email.toLowerCase()).executeTakeFirst()

/** Starts a sign-in: the provider URL it redirects to and the browser's state cookie. */
async function start(domain: string, redirectUri = APP) {
  const res = await get(loginUrl(domain, redirectUri))
  expect(res.statusCode).toBe(302)
  const cookie = String(res.headers['set-cookie']).split(';')[0]
  return { authorization: new URL(String(res.headers.location)), cookie }
}

/** The callback as our service sees it (the provider redirected the browser to the public URL). */
const callback = (url: string, cookie?: string) => get(url.slice(new URL(CALLBACK).origin.length), cookie)

/** The fragment parameters of the redirect to the client. */
function handedOver(location: string | undefined, redirectUri = APP): URLSearchParams {
  expect(location?.startsWith(`${redirectUri}#`)).toBe(true)
  return new URLSearchParams(String(location).slice(redirectUri.length + 1))
}

describe('browser sign-in', () => {
  it('runs the code flow with PKCE, state and nonce through the provider and hands a token to the client', async () => {
    const { org, domain } = await ssoOrg()
    idp.accounts.set(org.officeAdmin.email, { email: org.officeAdmin.email })
    const { authorization, cookie } = await start(domain)
    expect(authorization.origin + authorization.pathname).toBe(`${idp.issuer}/auth`)
    const params = Object.fromEntries(authorization.searchParams)
    expect(params).toEqual({
      response_type: 'code',
      client_id: WEB_CLIENT.id,
      redirect_uri: CALLBACK,
      scope: 'openid email profile',
      state: expect.stringMatching(/^[\w-]{43}$/),
      nonce: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
    })
    expect(cookie).toBe(`seaworthy_sso_state=${params.state}`)

    const back = await browseProvider(authorization.href, org.officeAdmin.email)
    const res = await callback(back, cookie)
    expect(res.statusCode).toBe(302)
    expect(res.headers['cache-control']).toBe('no-store')
    const fragment = handedOver(res.headers.location)
    expect(Object.fromEntries(fragment)).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: '3600',
      refresh_token: expect.any(String),
    })
    const me = await client(t.app, fragment.get('access_token')!).get('/api/v1/users/me')
    expect(me.body.user).toMatchObject({ id: org.officeAdmin.id, role: 'office_admin', lastLogin: expect.any(String) })

    // The state is single-use: the same callback again is refused, with nowhere to redirect.
    const replay = await callback(back, cookie)
    expect(replay.statusCode).toBe(400)
    expect(replay.json()).toEqual({ detail: 'Unknown or expired sign-in request' })
    expect(replay.headers.location).toBeUndefined()
  })

  it('creates a user just in time with the mapped role, and hands over to an app scheme', async () => {
    const { org, domain } = await ssoOrg({ roleClaim: 'groups', roleMap: { officers: 'office_employee' } })
    const email = `jit-${randomUUID()}@example.test`
    idp.accounts.set(email, { email, givenName: 'Jo', familyName: 'Bosun', groups: ['officers'] })
    const { authorization, cookie } = await start(domain, MOBILE)
    const res = await callback(await browseProvider(authorization.href, email), cookie)
    const fragment = handedOver(res.headers.location, MOBILE)
    expect(await userRow(email)).toMatchObject({
      organization_id: org.id,
      role: 'office_employee',
      first_name: 'Jo',
      last_name: 'Bosun',
      state: 'active',
    })
    expect((await client(t.app, fragment.get('access_token')!).get('/api/v1/users/me')).status).toBe(200)
  })

  it('refuses a redirect_uri not in the settings without redirecting, and an unknown domain or SSO off with 404', async () => {
    const { org, domain } = await ssoOrg()
    for (const uri of ['https://evil.example.test/steal', `${APP}/more`, `${APP}?x=1`]) {
      const res = await get(loginUrl(domain, uri))
      expect(res.statusCode).toBe(422)
      expect(res.json()).toEqual({
        detail: [
          { loc: ['query', 'redirect_uri'], msg: "redirect_uri is not one of the organization's redirect URIs", type: 'value_error' },
        ],
      })
      expect(res.headers.location).toBeUndefined()
    }
    expect((await get(`/api/v1/auth/sso/${domain}/login`)).json()).toEqual({
      detail: [{ loc: ['query', 'redirect_uri'], msg: 'Field required', type: 'missing' }],
    })
    const unknown = await get(loginUrl('nowhere.example.test'))
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toEqual({ detail: 'Organization not found' })
    // The domain matches case-insensitively.
    expect((await get(loginUrl(domain.toUpperCase()))).statusCode).toBe(302)
    expect((await org.admin.api.delete('/api/v1/shared/organization/sso')).status).toBe(204)
    expect((await get(loginUrl(domain))).statusCode).toBe(404)
  })

  it('redirects with error=access_denied when the provider cannot be reached, and starts nothing', async () => {
    const { org, domain } = await ssoOrg({ issuer: 'http://127.0.0.1:9' })
    const res = await get(loginUrl(domain))
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe(DENIED)
    expect(res.headers['set-cookie']).toBeUndefined()
    const states = await t.database.db.selectFrom('sso_login_states').select('state').where('organization_id', '=', org.id).execute()
    expect(states).toEqual([])
  })

  it('refuses a forged or expired state with a 400 and signs nobody in', async () => {
    const { org, domain } = await ssoOrg()
    idp.accounts.set(org.crew.email, { email: org.crew.email })
    const { authorization, cookie } = await start(domain)
    const back = new URL(await browseProvider(authorization.href, org.crew.email))
    const forged = new URL(back)
    forged.searchParams.set('state', 'forged-state')
    const res = await callback(forged.href, 'seaworthy_sso_state=forged-state')
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ detail: 'Unknown or expired sign-in request' })
    expect((await callback(`${CALLBACK}?code=abc`)).statusCode).toBe(400)

    await t.database.db
      .updateTable('sso_login_states')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('state', '=', back.searchParams.get('state')!)
      .execute()
    expect((await callback(back.href, cookie)).statusCode).toBe(400)
    expect((await userRow(org.crew.email))?.last_login).toBeNull()
  })

  it('redirects with error=access_denied when the sign-in fails after it started', async () => {
    const { org, domain } = await ssoOrg()
    idp.accounts.set(org.crew.email, { email: org.crew.email })
    const db = t.database.db
    const attempt = async (tamper: (state: string) => Promise<unknown> = async () => {}, cookieOf = (c: string) => c) => {
      const { authorization, cookie } = await start(domain)
      const back = await browseProvider(authorization.href, org.crew.email)
      await tamper(authorization.searchParams.get('state')!)
      const res = await callback(back, cookieOf(cookie))
      expect(res.statusCode).toBe(302)
      return res.headers.location
    }
    // Another browser's callback (no state cookie, or another one).
    expect(await attempt(undefined, () => '')).toBe(DENIED)
    expect(await attempt(undefined, () => 'seaworthy_sso_state=other')).toBe(DENIED)
    // The provider checks our PKCE verifier, and we check its nonce.
    const tamper = (column: 'code_verifier' | 'nonce') => (state: string) =>
      db
        .updateTable('sso_login_states')
        .set({ [column]: 'x'.repeat(43) })
        .where('state', '=', state)
        .execute()
    expect(await attempt(tamper('code_verifier'))).toBe(DENIED)
    expect(await attempt(tamper('nonce'))).toBe(DENIED)
    // The provider answered with an error (the person cancelled).
    const { authorization, cookie } = await start(domain)
    const cancelled = await callback(`${CALLBACK}?error=access_denied&state=${authorization.searchParams.get('state')}`, cookie)
    expect(cancelled.headers.location).toBe(DENIED)
    expect((await userRow(org.crew.email))?.last_login).toBeNull()
    // A wrong client secret in the settings: the provider refuses the code.
    await org.admin.api.put('/api/v1/shared/organization/sso', {
      issuer: idp.issuer,
      clientId: WEB_CLIENT.id,
      clientSecret: 'wrong',
      redirectUris: [APP],
    })
    expect(await attempt()).toBe(DENIED)
    expect((await userRow(org.crew.email))?.last_login).toBeNull()
  })

  it('refuses a suspended user and an e-mail of another organization', async () => {
    const { org, domain } = await ssoOrg()
    const other = await createOrg(t.app, t.database.db)
    const suspended = await org.addUser('crew')
    expect((await org.admin.api.delete(`/api/v1/shared/users/${suspended.id}`)).status).toBe(204)
    for (const email of [suspended.email, other.crew.email]) {
      idp.accounts.set(email, { email })
      const { authorization, cookie } = await start(domain)
      const res = await callback(await browseProvider(authorization.href, email), cookie)
      expect(res.headers.location).toBe(DENIED)
      expect((await userRow(email))?.last_login).toBeNull()
    }
    expect((await userRow(other.crew.email))?.organization_id).toBe(other.id)
  })
})
