import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, client, type TestApp } from '../../../app.js'
import { newSigningKey, TestProvider } from '../../../fixtures/sso-provider.js'
import { EXCHANGE, INVALID, newEmail, ssoKit } from '../../../fixtures/sso.js'

let t: TestApp
let idpA: TestProvider
let idpB: TestProvider
let kit: ReturnType<typeof ssoKit>
beforeAll(async () => {
  t = await buildTestApp({ SSO_ALLOW_HTTP: '1', SSO_JWKS_COOLDOWN_SECONDS: '0' })
  ;[idpA, idpB] = await Promise.all([TestProvider.start(), TestProvider.start()])
  kit = ssoKit(t)
})
afterAll(async () => {
  await t.app.close()
  await Promise.all([idpA.close(), idpB.close()])
})

describe('token exchange', () => {
  it('signs an existing user in by verified e-mail, as JSON or as a form', async () => {
    const { org, clientId } = await kit.ssoOrg(idpA)
    const token = await idpA.sign({ aud: clientId, email: org.crew.email.toUpperCase(), email_verified: true })
    const user = await kit.expectSignedInAs(await kit.exchange(token), org.crew.id)
    expect(user.lastLogin).toEqual(expect.any(String))
    const form = new URLSearchParams({ ...EXCHANGE, subject_token: token }).toString()
    const res = await client(t.app).post('/api/v1/auth/token', form, { 'content-type': 'application/x-www-form-urlencoded' })
    await kit.expectSignedInAs(res, org.crew.id)
    expect(await kit.userRow(org.crew.email)).toMatchObject({ role: 'crew', state: 'active' })
  })

  it('hands out a sign-in like a password login: logout refuses its access token at once', async () => {
    const { org, clientId } = await kit.ssoOrg(idpA)
    const token = await idpA.sign({ aud: clientId, email: org.crew.email, email_verified: true })
    const res = await kit.exchange(token)
    await kit.expectSignedInAs(res, org.crew.id)
    const { sid } = JSON.parse(Buffer.from(res.body.access_token.split('.')[1], 'base64url').toString())
    expect(sid).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/))
    expect((await client(t.app).post('/api/v1/auth/logout', { refresh_token: res.body.refresh_token })).status).toBe(204)
    expect((await client(t.app, res.body.access_token).get('/api/v1/users/me')).status).toBe(401)
  })

  it('creates a user just in time, with the role the role claim maps to (the highest of several)', async () => {
    const { org, clientId } = await kit.ssoOrg(idpA, {
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
    const created = await kit.exchange(token)
    const row = await kit.userRow(email)
    expect(row).toMatchObject({
      organization_id: org.id,
      role: 'office_admin',
      state: 'active',
      password_hash: null,
      first_name: 'Ada',
      last_name: 'Lovelace',
    })
    await kit.expectSignedInAs(created, row!.id)
    // Signing in again finds the same user.
    await kit.expectSignedInAs(await kit.exchange(token), row!.id)
    // The creation is in the audit trail once, the new user its actor (they proved who they are).
    const audit = await org.admin.api.get(`/api/v1/shared/audit-events?target_id=${row!.id}`)
    expect(audit.body.items).toEqual([
      expect.objectContaining({
        type: 'user.created',
        actor: { userId: row!.id, role: 'office_admin' },
        data: expect.objectContaining({ id: row!.id, email, state: 'active', firstName: 'Ada' }),
        requestId: expect.any(String),
      }),
    ])

    const boss = newEmail()
    const res = await kit.exchange(
      await idpA.sign({
        aud: clientId,
        email: boss,
        email_verified: true,
        name: 'Grace Brewster Hopper',
        groups: ['ship-office', 'admins'],
      }),
    )
    expect(res.status).toBe(200)
    expect(await kit.userRow(boss)).toMatchObject({ role: 'admin', first_name: 'Grace', last_name: 'Brewster Hopper' })
  })

  it('gives the default role when there is no role claim or no value maps', async () => {
    const { clientId } = await kit.ssoOrg(idpA, { defaultRole: 'office_employee', roleClaim: 'roles', roleMap: { Admins: 'admin' } })
    const plain = newEmail()
    expect((await kit.exchange(await idpA.sign({ aud: clientId, email: plain, email_verified: true }))).status).toBe(200)
    expect(await kit.userRow(plain)).toMatchObject({ role: 'office_employee', first_name: plain.split('@')[0], last_name: '' })
    const unmapped = newEmail()
    expect((await kit.exchange(await idpA.sign({ aud: clientId, email: unmapped, email_verified: true, roles: 'Readers' }))).status).toBe(
      200,
    )
    expect((await kit.userRow(unmapped))?.role).toBe('office_employee')
  })

  it('checks the audience: the audience setting when there is one, else the client id', async () => {
    const audience = `api://seaworthy-${randomUUID()}`
    const { org, clientId } = await kit.ssoOrg(idpA, { audience })
    const email = newEmail()
    for (const aud of ['someone-else', clientId]) {
      expect(await kit.exchange(await idpA.sign({ aud, email, email_verified: true }))).toMatchObject({ status: 401, body: INVALID })
    }
    expect(await kit.userRow(email)).toBeUndefined()
    const res = await kit.exchange(await idpA.sign({ aud: ['other-api', audience], email, email_verified: true }))
    expect(res.status).toBe(200)
    expect((await kit.userRow(email))?.organization_id).toBe(org.id)
  })

  it('refuses an unknown issuer, an expired token, a token not yet valid and an unverified e-mail', async () => {
    const { clientId } = await kit.ssoOrg(idpA)
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
      const res = await kit.exchange(token)
      expect(res.status).toBe(401)
      expect(res.body).toEqual(INVALID)
      expect(res.headers['www-authenticate']).toBe('Bearer')
    }
    expect(await kit.userRow(email)).toBeUndefined()
    expect((await kit.exchange(await idpA.sign(claims))).status).toBe(200)
    // Entra ID's verified-e-mail claim stands in for an absent email_verified.
    const entra = newEmail()
    expect((await kit.exchange(await idpA.sign({ aud: clientId, email: entra, xms_edov: true }))).status).toBe(200)
  })

  it("refuses a key the issuer's JWKS does not have, after one refetch", async () => {
    const { clientId } = await kit.ssoOrg(idpA)
    const email = newEmail()
    expect((await kit.exchange(await idpA.sign({ aud: clientId, email, email_verified: true }))).status).toBe(200)
    const before = idpA.hits.jwks
    const stranger = await newSigningKey()
    const res = await kit.exchange(await idpA.sign({ aud: clientId, email, email_verified: true }, { key: stranger }))
    expect(res).toMatchObject({ status: 401, body: INVALID })
    expect(idpA.hits.jwks).toBe(before + 1)
  })

  it('picks up a rotated key with one JWKS fetch and caches discovery and keys otherwise', async () => {
    const idp = await TestProvider.start()
    try {
      const { org, clientId } = await kit.ssoOrg(idp)
      const claims = { aud: clientId, email: org.officeEmployee.email, email_verified: true }
      const [oldKey] = idp.keys
      for (let i = 0; i < 3; i++) await kit.expectSignedInAs(await kit.exchange(await idp.sign(claims)), org.officeEmployee.id)
      expect(idp.hits).toEqual({ discovery: 1, jwks: 1 })

      const newKey = await newSigningKey()
      await idp.publish([newKey, oldKey])
      for (let i = 0; i < 3; i++)
        await kit.expectSignedInAs(await kit.exchange(await idp.sign(claims, { key: newKey })), org.officeEmployee.id)
      await kit.expectSignedInAs(await kit.exchange(await idp.sign(claims, { key: oldKey })), org.officeEmployee.id)
      expect(idp.hits).toEqual({ discovery: 1, jwks: 2 })
    } finally {
      await idp.close()
    }
  })

  it("never signs a user into their organization with another organization's issuer", async () => {
    const a = await kit.ssoOrg(idpA)
    const b = await kit.ssoOrg(idpB)
    const victim = a.org.officeAdmin
    // B's provider vouches for an e-mail of A's user: B's settings accept the token, A's user is not B's.
    const fromB = await kit.exchange(await idpB.sign({ aud: b.clientId, email: victim.email, email_verified: true }))
    expect(fromB).toMatchObject({ status: 401, body: INVALID })
    // Claiming A's issuer with B's key fails the signature.
    const forged = await idpB.sign({ iss: idpA.issuer, aud: a.clientId, email: victim.email, email_verified: true })
    expect(await kit.exchange(forged)).toMatchObject({ status: 401, body: INVALID })
    expect(await kit.userRow(victim.email)).toMatchObject({ organization_id: a.org.id, last_login: null })
  })

  it('tells apart two organizations sharing an issuer by audience', async () => {
    const first = await kit.ssoOrg(idpA)
    const second = await kit.ssoOrg(idpA)
    const res = await kit.exchange(await idpA.sign({ aud: second.clientId, email: first.org.crew.email, email_verified: true }))
    expect(res).toMatchObject({ status: 401, body: INVALID })
    const email = newEmail()
    expect((await kit.exchange(await idpA.sign({ aud: second.clientId, email, email_verified: true }))).status).toBe(200)
    expect((await kit.userRow(email))?.organization_id).toBe(second.org.id)
  })

  it('refuses a suspended user and activates a pending one', async () => {
    const { org, clientId } = await kit.ssoOrg(idpA)
    const suspended = await org.addUser('crew')
    expect((await org.admin.api.delete(`/api/v1/shared/users/${suspended.id}`)).status).toBe(204)
    const res = await kit.exchange(await idpA.sign({ aud: clientId, email: suspended.email, email_verified: true }))
    expect(res).toMatchObject({ status: 401, body: INVALID })
    expect(await kit.userRow(suspended.email)).toMatchObject({ state: 'suspended', last_login: null })

    const pending = newEmail()
    const created = await org.admin.api.post('/api/v1/shared/users', {
      email: pending,
      firstName: 'Pat',
      lastName: 'Pending',
      role: 'crew',
    })
    expect(created.body.state).toBe('pending')
    await kit.expectSignedInAs(
      await kit.exchange(await idpA.sign({ aud: clientId, email: pending, email_verified: true })),
      created.body.id,
    )
    expect((await kit.userRow(pending))?.state).toBe('active')
    const audit = await org.admin.api.get(`/api/v1/shared/audit-events?target_id=${created.body.id}&type=user.updated`)
    expect(audit.body.items.map((e: { data: unknown }) => e.data)).toEqual([{ changes: { state: ['pending', 'active'] } }])
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
    expect(empty.body.detail).toEqual([
      { loc: ['body', 'email'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'password'], msg: 'Field required', type: 'missing' },
    ])
  })
})
