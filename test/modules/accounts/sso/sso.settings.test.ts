import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, client, type TestApp } from '../../../app.js'
import { createOrg, PASSWORD } from '../../../factories.js'
import { createOrganization } from '../../../../src/modules/accounts/organizations/organizations.service.js'
import { TestProvider } from '../../../fixtures/sso-provider.js'
import { INVALID, newEmail, SSO, ssoKit } from '../../../fixtures/sso.js'

let t: TestApp
let idpA: TestProvider
let kit: ReturnType<typeof ssoKit>
beforeAll(async () => {
  t = await buildTestApp({ SSO_ALLOW_HTTP: '1' })
  idpA = await TestProvider.start()
  kit = ssoKit(t)
})
afterAll(async () => {
  await t.app.close()
  await idpA.close()
})

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
    expect((await kit.settingsRow(org.id))?.client_secret).toBe('s3cret-value')

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
    expect(await kit.settingsRow(org.id)).toMatchObject({
      client_id: 'web2',
      client_secret: 's3cret-value',
      enforce: true,
      role_claim: 'groups',
    })
    const cleared = await org.admin.api.put(SSO, { ...full, clientSecret: null })
    expect(cleared.body.hasClientSecret).toBe(false)
    expect((await kit.settingsRow(org.id))?.client_secret).toBeNull()
  })

  it('is for admins only, and each organization sees its own', async () => {
    const org = await createOrg(t.app, t.database.db)
    const other = await createOrg(t.app, t.database.db)
    await org.admin.api.put(SSO, { issuer: idpA.issuer, clientId: 'web' })
    for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
      expect((await user.api.get(SSO)).status).toBe(403)
      expect((await user.api.put(SSO, { issuer: 'https://other-idp.example.test', clientId: 'mine' })).status).toBe(403)
      expect((await user.api.delete(SSO)).status).toBe(403)
    }
    expect(await kit.settingsRow(org.id)).toMatchObject({ issuer: idpA.issuer, client_id: 'web' })
    expect(await other.admin.api.get(SSO)).toMatchObject({ status: 404, body: { detail: 'Single sign-on settings not found' } })
    expect((await client(t.app).get(SSO)).status).toBe(401)
  })

  it('turns single sign-on off with DELETE (204, also when it was off)', async () => {
    const { org, clientId } = await kit.ssoOrg(idpA)
    const email = newEmail()
    expect((await kit.exchange(await idpA.sign({ aud: clientId, email: org.crew.email, email_verified: true }))).status).toBe(200)
    expect((await org.admin.api.delete(SSO)).status).toBe(204)
    expect(await kit.settingsRow(org.id)).toBeUndefined()
    expect((await org.admin.api.get(SSO)).status).toBe(404)
    expect((await org.admin.api.delete(SSO)).status).toBe(204)
    // The issuer no longer signs anyone into the organization.
    for (const known of [org.crew.email, email]) {
      expect(await kit.exchange(await idpA.sign({ aud: clientId, email: known, email_verified: true }))).toMatchObject({
        status: 401,
        body: INVALID,
      })
    }
    expect(await kit.userRow(email)).toBeUndefined()
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
    expect(await kit.settingsRow(org.id)).toBeUndefined()
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

describe('enforced single sign-on', () => {
  it('answers password logins with "Use single sign-on", except for the admin made by org create', async () => {
    const db = t.database.db
    const breakGlass = newEmail()
    const { organizationId, adminUserId } = await createOrganization(db, {
      name: 'Enforcing Line',
      products: ['learn', 'crew'],
      admin: { email: breakGlass, password: PASSWORD },
    })
    expect((await kit.userRow(breakGlass))?.break_glass).toBe(true)
    const login = await kit.passwordLogin(breakGlass)
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
      expect(await kit.passwordLogin(email)).toMatchObject({ status: 401, body: { detail: 'Use single sign-on' } })
      const sso = await kit.exchange(await idpA.sign({ aud: clientId, email, email_verified: true }))
      expect(sso.status).toBe(200)
    }
    await kit.expectSignedInAs(await kit.passwordLogin(breakGlass), adminUserId)

    expect((await admin.put(SSO, { issuer: idpA.issuer, clientId, enforce: false })).status).toBe(200)
    expect((await kit.passwordLogin(users.crew)).status).toBe(200)
    expect((await kit.userRow(users.crew))?.organization_id).toBe(organizationId)
  })
})
