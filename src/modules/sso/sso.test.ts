import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, client, type TestApp } from '../../../test/app.js'
import { createOrg, PASSWORD, type TestOrg } from '../../../test/factories.js'
import { createOrganization } from '../organizations/organizations.service.js'
import { newSigningKey, TestProvider } from './sso.test-helpers.js'

let t: TestApp
let idpA: TestProvider
let idpB: TestProvider
beforeAll(async () => {
  t = await buildTestApp({ SSO_ALLOW_HTTP: '1', SSO_JWKS_COOLDOWN_SECONDS: '0' })
  ;[idpA, idpB] = await Promise.all([TestProvider.start(), TestProvider.start()])
})
afterAll(async () => {
  await t.app.close()
  await Promise.all([idpA.close(), idpB.close()])
})

const SSO = '/api/v1/shared/organization/sso'
const INVALID = { detail: 'Invalid identity token' }
const EXCHANGE = {
  grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
  subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
}
const exchange = (subjectToken: string) => client(t.app).post('/api/v1/auth/token', { ...EXCHANGE, subject_token: subjectToken })
const passwordLogin = (email: string) => client(t.app).post('/api/v1/auth/token', { email, password: PASSWORD })
const newEmail = () => `sso-${randomUUID()}@example.test`
const userRow = (email: string) =>
  t.database.db.selectFrom('users').selectAll().where(sql`lower(email)`, '=', email.toLowerCase()).executeTakeFirst()
const settingsRow = (orgId: string) =>
  t.database.db.selectFrom('sso_settings').selectAll().where('organization_id', '=', orgId).executeTakeFirst()

/** An organization of its own that trusts `idp`, under a client id of its own. */
async function ssoOrg(idp: TestProvider, settings: Record<string, unknown> = {}): Promise<{ org: TestOrg; clientId: string }> {
  const org = await createOrg(t.app, t.database.db)
  const clientId = `client-${randomUUID()}`
  const res = await org.admin.api.put(SSO, { issuer: idp.issuer, clientId, ...settings })
  expect(res.status).toBe(200)
  return { org, clientId }
}

async function expectSignedInAs(res: { status: number; body: any }, userId: string) {
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 3600 })
  const me = await client(t.app, res.body.access_token).get('/api/v1/users/me')
  expect(me.status).toBe(200)
  expect(me.body.user.id).toBe(userId)
  return me.body.user
}

describe('single-sign-on settings', () => {
  it('stores the settings with their defaults and never returns the secret', async () => {
    const org = await createOrg(t.app, t.database.db)
    const put = await org.admin.api.put(SSO, { issuer: idpA.issuer, clientId: 'web', clientSecret: 's3cret-value' })
    const expected = {
      issuer: idpA.issuer,
      clientId: 'web',
      audience: null,
      roleClaim: null,
      roleMap: {},
      defaultRole: 'crew',
      enforce: false,
      redirectUris: [],
      hasClientSecret: true,
    }
    expect(put.status).toBe(200)
    expect(put.body).toEqual(expected)
    expect(put.text).not.toContain('s3cret-value')
    const get = await org.admin.api.get(SSO)
    expect(get.status).toBe(200)
    expect(get.body).toEqual(expected)
    expect((await settingsRow(org.id))?.client_secret).toBe('s3cret-value')

    const full = {
      issuer: idpA.issuer,
      clientId: 'web2',
      audience: 'api://seaworthy',
      roleClaim: 'groups',
      roleMap: { 'Ship Office': 'office_admin', captains: 'office_employee' },
      defaultRole: 'office_employee',
      enforce: true,
      redirectUris: ['https://app.example.test/signed-in', 'com.example.crew:/sso', 'http://127.0.0.1:5173/cb'],
    }
    // Omitted, the secret is kept; null removes it.
    const replaced = await org.admin.api.put(SSO, full)
    expect(replaced.status).toBe(200)
    expect(replaced.body).toEqual({ ...full, hasClientSecret: true })
    expect(await settingsRow(org.id)).toMatchObject({
      client_id: 'web2',
      client_secret: 's3cret-value',
      enforce: true,
      role_claim: 'groups',
    })
    const cleared = await org.admin.api.put(SSO, { ...full, clientSecret: null })
    expect(cleared.body.hasClientSecret).toBe(false)
    expect((await settingsRow(org.id))?.client_secret).toBeNull()
  })

  it('is for admins only, and each organization sees its own', async () => {
    const org = await createOrg(t.app, t.database.db)
    const other = await createOrg(t.app, t.database.db)
    await org.admin.api.put(SSO, { issuer: idpA.issuer, clientId: 'web' })
    for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
      expect((await user.api.get(SSO)).status).toBe(403)
      expect((await user.api.put(SSO, { issuer: idpB.issuer, clientId: 'mine' })).status).toBe(403)
      expect((await user.api.delete(SSO)).status).toBe(403)
    }
    expect(await settingsRow(org.id)).toMatchObject({ issuer: idpA.issuer, client_id: 'web' })
    expect(await other.admin.api.get(SSO)).toMatchObject({ status: 404, body: { detail: 'Single sign-on settings not found' } })
    expect((await client(t.app).get(SSO)).status).toBe(401)
  })

  it('turns single sign-on off with DELETE (204, also when it was off)', async () => {
    const { org, clientId } = await ssoOrg(idpA)
    const email = newEmail()
    expect((await exchange(await idpA.sign({ aud: clientId, email: org.crew.email, email_verified: true }))).status).toBe(200)
    expect((await org.admin.api.delete(SSO)).status).toBe(204)
    expect(await settingsRow(org.id)).toBeUndefined()
    expect((await org.admin.api.get(SSO)).status).toBe(404)
    expect((await org.admin.api.delete(SSO)).status).toBe(204)
    // The issuer no longer signs anyone into the organization.
    for (const known of [org.crew.email, email]) {
      expect(await exchange(await idpA.sign({ aud: clientId, email: known, email_verified: true }))).toMatchObject({
        status: 401,
        body: INVALID,
      })
    }
    expect(await userRow(email)).toBeUndefined()
  })

  it('refuses bad settings with a 422 at each field', async () => {
    const org = await createOrg(t.app, t.database.db)
    const res = await org.admin.api.put(SSO, {
      issuer: 'https://idp.example.test/?tenant=1',
      clientId: '',
      roleMap: { captain: 'captain' },
      defaultRole: 'boss',
      enforce: 'yes',
      redirectUris: ['https://app.example.test/cb', 'javascript:alert(1)', 'https://app.example.test/cb#x', 'http://app.example.test/cb'],
    })
    expect(res.status).toBe(422)
    expect(res.body.detail.map((d: { loc: unknown[]; type: string }) => [d.loc, d.type])).toEqual([
      [['body', 'issuer'], 'string_pattern_mismatch'],
      [['body', 'clientId'], 'string_too_short'],
      [['body', 'roleMap', 'captain'], 'enum'],
      [['body', 'defaultRole'], 'enum'],
      [['body', 'enforce'], 'bool_parsing'],
      [['body', 'redirectUris', 1], 'string_pattern_mismatch'],
      [['body', 'redirectUris', 2], 'string_pattern_mismatch'],
      [['body', 'redirectUris', 3], 'string_pattern_mismatch'],
    ])
    const missing = await org.admin.api.put(SSO, {})
    expect(missing.body.detail).toEqual([
      { loc: ['body', 'issuer'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'clientId'], msg: 'Field required', type: 'missing' },
    ])
    const noClaim = await org.admin.api.put(SSO, { issuer: idpA.issuer, clientId: 'web', roleMap: { a: 'admin' } })
    expect(noClaim.body).toEqual({ detail: [{ loc: ['body', 'roleClaim'], msg: 'roleClaim is required with a roleMap', type: 'missing' }] })
    expect(await settingsRow(org.id)).toBeUndefined()
  })

  it('takes an http:// issuer only when SSO_ALLOW_HTTP is set', async () => {
    const strict = await buildTestApp()
    try {
      const org = await createOrg(strict.app, strict.database.db)
      const http = await org.admin.api.put(SSO, { issuer: idpA.issuer, clientId: 'web' })
      expect(http.status).toBe(422)
      expect(http.body.detail).toEqual([{ loc: ['body', 'issuer'], msg: expect.any(String), type: 'string_pattern_mismatch' }])
      expect((await org.admin.api.put(SSO, { issuer: 'https://login.example.test/tenant/v2.0', clientId: 'web' })).status).toBe(200)
    } finally {
      await strict.app.close()
    }
  })
})

describe('token exchange', () => {
  it('signs an existing user in by verified e-mail, as JSON or as a form', async () => {
    const { org, clientId } = await ssoOrg(idpA)
    const token = await idpA.sign({ aud: clientId, email: org.crew.email.toUpperCase(), email_verified: true })
    const user = await expectSignedInAs(await exchange(token), org.crew.id)
    expect(user.lastLogin).toEqual(expect.any(String))
    const form = new URLSearchParams({ ...EXCHANGE, subject_token: token }).toString()
    const res = await client(t.app).post('/api/v1/auth/token', form, { 'content-type': 'application/x-www-form-urlencoded' })
    await expectSignedInAs(res, org.crew.id)
    expect(await userRow(org.crew.email)).toMatchObject({ role: 'crew', state: 'active' })
  })

  it('creates a user just in time, with the role the role claim maps to (the highest of several)', async () => {
    const { org, clientId } = await ssoOrg(idpA, {
      roleClaim: 'groups',
      roleMap: { 'ship-office': 'office_admin', admins: 'admin' },
      defaultRole: 'crew',
    })
    const email = newEmail()
    const token = await idpA.sign({
      aud: clientId,
      email,
      email_verified: true,
      given_name: 'Ada',
      family_name: 'Lovelace',
      groups: ['deck', 'ship-office'],
    })
    const created = await exchange(token)
    const row = await userRow(email)
    expect(row).toMatchObject({
      organization_id: org.id,
      role: 'office_admin',
      state: 'active',
      password_hash: null,
      first_name: 'Ada',
      last_name: 'Lovelace',
    })
    await expectSignedInAs(created, row!.id)
    // Signing in again finds the same user.
    await expectSignedInAs(await exchange(token), row!.id)

    const boss = newEmail()
    const res = await exchange(
      await idpA.sign({
        aud: clientId,
        email: boss,
        email_verified: true,
        name: 'Grace Brewster Hopper',
        groups: ['ship-office', 'admins'],
      }),
    )
    expect(res.status).toBe(200)
    expect(await userRow(boss)).toMatchObject({ role: 'admin', first_name: 'Grace', last_name: 'Brewster Hopper' })
  })

  it('gives the default role when there is no role claim or no value maps', async () => {
    const { clientId } = await ssoOrg(idpA, { defaultRole: 'office_employee', roleClaim: 'roles', roleMap: { Admins: 'admin' } })
    const plain = newEmail()
    expect((await exchange(await idpA.sign({ aud: clientId, email: plain, email_verified: true }))).status).toBe(200)
    expect(await userRow(plain)).toMatchObject({ role: 'office_employee', first_name: plain.split('@')[0], last_name: '' })
    const unmapped = newEmail()
    expect((await exchange(await idpA.sign({ aud: clientId, email: unmapped, email_verified: true, roles: 'Readers' }))).status).toBe(200)
    expect((await userRow(unmapped))?.role).toBe('office_employee')
  })

  it('checks the audience: the audience setting when there is one, else the client id', async () => {
    const audience = `api://seaworthy-${randomUUID()}`
    const { org, clientId } = await ssoOrg(idpA, { audience })
    const email = newEmail()
    for (const aud of ['someone-else', clientId]) {
      expect(await exchange(await idpA.sign({ aud, email, email_verified: true }))).toMatchObject({ status: 401, body: INVALID })
    }
    expect(await userRow(email)).toBeUndefined()
    const res = await exchange(await idpA.sign({ aud: ['other-api', audience], email, email_verified: true }))
    expect(res.status).toBe(200)
    expect((await userRow(email))?.organization_id).toBe(org.id)
  })

  it('refuses an unknown issuer, an expired token, a token not yet valid and an unverified e-mail', async () => {
    const { clientId } = await ssoOrg(idpA)
    const email = newEmail()
    const claims = { aud: clientId, email, email_verified: true }
    const refused = [
      await idpA.sign({ ...claims, iss: 'http://127.0.0.1:9/nobody' }),
      await idpA.sign(claims, { expiresIn: Math.floor(Date.now() / 1000) - 600 }),
      await idpA.sign(claims, { notBefore: Math.floor(Date.now() / 1000) + 600 }),
      await idpA.sign({ ...claims, email_verified: false }),
      await idpA.sign({ ...claims, email_verified: 'true' }),
      await idpA.sign({ ...claims, email_verified: false, xms_edov: true }),
      await idpA.sign({ aud: clientId, email }),
      await idpA.sign({ aud: clientId, email_verified: true }),
      'not-a-jwt',
    ]
    for (const token of refused) {
      const res = await exchange(token)
      expect(res.status).toBe(401)
      expect(res.body).toEqual(INVALID)
      expect(res.headers['www-authenticate']).toBe('Bearer')
    }
    expect(await userRow(email)).toBeUndefined()
    expect((await exchange(await idpA.sign(claims))).status).toBe(200)
    // Entra ID's verified-e-mail claim stands in for an absent email_verified.
    const entra = newEmail()
    expect((await exchange(await idpA.sign({ aud: clientId, email: entra, xms_edov: true }))).status).toBe(200)
  })

  it("refuses a key the issuer's JWKS does not have, after one refetch", async () => {
    const { clientId } = await ssoOrg(idpA)
    const email = newEmail()
    expect((await exchange(await idpA.sign({ aud: clientId, email, email_verified: true }))).status).toBe(200)
    const before = idpA.hits.jwks
    const stranger = await newSigningKey()
    const res = await exchange(await idpA.sign({ aud: clientId, email, email_verified: true }, { key: stranger }))
    expect(res).toMatchObject({ status: 401, body: INVALID })
    expect(idpA.hits.jwks).toBe(before + 1)
  })

  it('picks up a rotated key with one JWKS fetch and caches discovery and keys otherwise', async () => {
    const idp = await TestProvider.start()
    try {
      const { org, clientId } = await ssoOrg(idp)
      const claims = { aud: clientId, email: org.officeEmployee.email, email_verified: true }
      const [oldKey] = idp.keys
      for (let i = 0; i < 3; i++) await expectSignedInAs(await exchange(await idp.sign(claims)), org.officeEmployee.id)
      expect(idp.hits).toEqual({ discovery: 1, jwks: 1 })

      const newKey = await newSigningKey()
      await idp.publish([newKey, oldKey])
      for (let i = 0; i < 3; i++) await expectSignedInAs(await exchange(await idp.sign(claims, { key: newKey })), org.officeEmployee.id)
      await expectSignedInAs(await exchange(await idp.sign(claims, { key: oldKey })), org.officeEmployee.id)
      expect(idp.hits).toEqual({ discovery: 1, jwks: 2 })
    } finally {
      await idp.close()
    }
  })

  it("never signs a user into their organization with another organization's issuer", async () => {
    const a = await ssoOrg(idpA)
    const b = await ssoOrg(idpB)
    const victim = a.org.officeAdmin
    // B's provider vouches for an e-mail of A's user: B's settings accept the token, A's user is not B's.
    const fromB = await exchange(await idpB.sign({ aud: b.clientId, email: victim.email, email_verified: true }))
    expect(fromB).toMatchObject({ status: 401, body: INVALID })
    // Claiming A's issuer with B's key fails the signature.
    const forged = await idpB.sign({ iss: idpA.issuer, aud: a.clientId, email: victim.email, email_verified: true })
    expect(await exchange(forged)).toMatchObject({ status: 401, body: INVALID })
    expect(await userRow(victim.email)).toMatchObject({ organization_id: a.org.id, last_login: null })
  })

  it('tells apart two organizations sharing an issuer by audience', async () => {
    const first = await ssoOrg(idpA)
    const second = await ssoOrg(idpA)
    const res = await exchange(await idpA.sign({ aud: second.clientId, email: first.org.crew.email, email_verified: true }))
    expect(res).toMatchObject({ status: 401, body: INVALID })
    const email = newEmail()
    expect((await exchange(await idpA.sign({ aud: second.clientId, email, email_verified: true }))).status).toBe(200)
    expect((await userRow(email))?.organization_id).toBe(second.org.id)
  })

  it('refuses a suspended user and activates a pending one', async () => {
    const { org, clientId } = await ssoOrg(idpA)
    const suspended = await org.addUser('crew')
    expect((await org.admin.api.delete(`/api/v1/shared/users/${suspended.id}`)).status).toBe(204)
    const res = await exchange(await idpA.sign({ aud: clientId, email: suspended.email, email_verified: true }))
    expect(res).toMatchObject({ status: 401, body: INVALID })
    expect(await userRow(suspended.email)).toMatchObject({ state: 'suspended', last_login: null })

    const pending = newEmail()
    const created = await org.admin.api.post('/api/v1/shared/users', {
      email: pending,
      firstName: 'Pat',
      lastName: 'Pending',
      role: 'crew',
    })
    expect(created.body.state).toBe('pending')
    await expectSignedInAs(await exchange(await idpA.sign({ aud: clientId, email: pending, email_verified: true })), created.body.id)
    expect((await userRow(pending))?.state).toBe('active')
  })

  it('needs the subject token and its type with that grant, and still the password without it', async () => {
    const res = await client(t.app).post('/api/v1/auth/token', { grant_type: EXCHANGE.grant_type })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      { loc: ['body', 'subject_token'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'subject_token_type'], msg: 'Field required', type: 'missing' },
    ])
    const wrongType = await client(t.app).post('/api/v1/auth/token', {
      ...EXCHANGE,
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      subject_token: 'x',
    })
    expect(wrongType.body.detail).toEqual([{ loc: ['body', 'subject_token_type'], msg: expect.any(String), type: 'literal_error' }])
    const empty = await client(t.app).post('/api/v1/auth/token', {})
    expect(empty.body.detail).toEqual([{ loc: ['body', 'password'], msg: 'Field required', type: 'missing' }])
  })
})

describe('enforced single sign-on', () => {
  it('answers password logins with "Use single sign-on", except for the admin made by org create', async () => {
    const db = t.database.db
    const breakGlass = newEmail()
    const { organizationId, adminUserId } = await createOrganization(db, {
      name: 'Enforcing Line',
      products: ['learn', 'crew'],
      admin: { email: breakGlass, password: PASSWORD },
    })
    expect((await userRow(breakGlass))?.break_glass).toBe(true)
    const login = await passwordLogin(breakGlass)
    const admin = client(t.app, login.body.access_token)
    const users: Record<string, string> = {}
    for (const role of ['admin', 'crew']) {
      users[role] = newEmail()
      const res = await admin.post('/api/v1/shared/users', { email: users[role], firstName: 'A', lastName: role, role, password: PASSWORD })
      expect(res.status).toBe(201)
    }
    const clientId = `client-${randomUUID()}`
    expect((await admin.put(SSO, { issuer: idpA.issuer, clientId, enforce: true })).status).toBe(200)

    for (const email of [users.admin, users.crew]) {
      expect(await passwordLogin(email)).toMatchObject({ status: 401, body: { detail: 'Use single sign-on' } })
      const sso = await exchange(await idpA.sign({ aud: clientId, email, email_verified: true }))
      expect(sso.status).toBe(200)
    }
    await expectSignedInAs(await passwordLogin(breakGlass), adminUserId)

    expect((await admin.put(SSO, { issuer: idpA.issuer, clientId, enforce: false })).status).toBe(200)
    expect((await passwordLogin(users.crew)).status).toBe(200)
    expect((await userRow(users.crew))?.organization_id).toBe(organizationId)
  })
})
