import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { client, TEST_SECRET, useTestApp } from '../../../app.js'
import { PASSWORD, useOrg } from '../../../factories.js'

const t = useTestApp({ LOGIN_MAX_FAILURES_PER_EMAIL: '3', LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' })
const org = useOrg(t)

const anonymous = () => client(t.app)

describe('POST /api/v1/auth/token', () => {
  it('issues a bearer token for JSON credentials, matching the e-mail case-insensitively', async () => {
    const res = await anonymous().post('/api/v1/auth/token', { email: org.crew.email.toUpperCase(), password: PASSWORD })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 3600,
      refresh_token: expect.any(String),
    })
    const me = await client(t.app, res.body.access_token).get('/api/v1/users/me')
    expect(me.status).toBe(200)
    expect(me.body.user.id).toBe(org.crew.id)
    expect(me.body.user.lastLogin).toEqual(expect.any(String))
  })

  it('accepts the OAuth2 password form', async () => {
    const form = new URLSearchParams({ username: org.admin.email, password: PASSWORD, grant_type: 'password' }).toString()
    const res = await anonymous().post('/api/v1/auth/token', form, { 'content-type': 'application/x-www-form-urlencoded' })
    expect(res.status).toBe(200)
    expect(res.body.token_type).toBe('bearer')
  })

  it('answers 401 with the contract message for a wrong password or an unknown e-mail', async () => {
    for (const email of [org.officeAdmin.email, 'nobody@example.test']) {
      const res = await anonymous().post('/api/v1/auth/token', { email, password: 'wrong password' })
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ detail: 'Incorrect email or password' })
    }
  })

  it('reports every missing field in one 422, by the names of the JSON body or the form', async () => {
    const missing = (field: string) => ({ loc: ['body', field], msg: 'Field required', type: 'missing' })
    for (const body of [{}, undefined]) {
      const res = await anonymous().post('/api/v1/auth/token', body)
      expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { detail: [missing('email'), missing('password')] } })
    }
    const form = { 'content-type': 'application/x-www-form-urlencoded' }
    const empty = await anonymous().post('/api/v1/auth/token', '', form)
    expect({ status: empty.status, body: empty.body }).toEqual({
      status: 422,
      body: { detail: [missing('username'), missing('password')] },
    })
    const noPassword = await anonymous().post('/api/v1/auth/token', 'username=a%40b.c&grant_type=password', form)
    expect(noPassword.body).toEqual({ detail: [missing('password')] })
    const wrongTypes = await anonymous().post('/api/v1/auth/token', { email: 5, password: null })
    expect(wrongTypes.body).toEqual({
      detail: [
        { loc: ['body', 'email'], msg: 'Input should be a valid string', type: 'string_type' },
        { loc: ['body', 'password'], msg: 'Input should be a valid string', type: 'string_type' },
      ],
    })
  })

  it('throttles an e-mail after repeated failures with 429 and Retry-After, also for the right password', async () => {
    const user = await org.addUser('crew')
    for (let i = 0; i < 3; i++) {
      expect((await anonymous().post('/api/v1/auth/token', { email: user.email, password: 'nope-nope' })).status).toBe(401)
    }
    const blocked = await anonymous().post('/api/v1/auth/token', { email: user.email, password: PASSWORD })
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(900)
    expect(blocked.body).toEqual({ detail: expect.any(String) })
    // Another e-mail from the same address is not affected.
    expect((await anonymous().post('/api/v1/auth/token', { email: org.officeEmployee.email, password: PASSWORD })).status).toBe(200)
  })

  it('never counts successful logins', async () => {
    const user = await org.addUser('crew')
    for (let i = 0; i < 5; i++) {
      expect((await anonymous().post('/api/v1/auth/token', { email: user.email, password: PASSWORD })).status).toBe(200)
    }
  })
})

describe('bearer tokens', () => {
  it('refuses a missing, garbage or wrongly signed token with 401 and WWW-Authenticate', async () => {
    const forged = await new SignJWT({ org: org.id, role: 'admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(org.admin.id)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'))
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer garbage' },
      { authorization: `Bearer ${forged}` },
      { authorization: 'Basic abc' },
    ]
    for (const headers of attempts) {
      const res = await anonymous().get('/api/v1/users/me', headers)
      expect(res.status).toBe(401)
      expect(res.headers['www-authenticate']).toBe('Bearer')
      expect(res.body).toEqual({ detail: expect.any(String) })
    }
  })

  it('refuses an expired token', async () => {
    const expired = await new SignJWT({ org: org.id, role: 'admin', products: ['learn', 'crew'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(org.admin.id)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(TEST_SECRET))
    expect((await client(t.app, expired).get('/api/v1/users/me')).status).toBe(401)
  })

  it("stops a suspended user's earlier tokens at once and for good: after a restore only a new login works", async () => {
    const user = await org.addUser('office_employee')
    expect((await user.api.get('/api/v1/shared/users/me/session')).status).toBe(200)
    expect((await org.admin.api.delete(`/api/v1/shared/users/${user.id}`)).status).toBe(204)
    expect((await user.api.get('/api/v1/users/me')).status).toBe(401)
    expect((await user.api.get('/api/v1/shared/users/me/session')).status).toBe(401)
    // The right password is told the account is suspended; a wrong one only that it is incorrect.
    const refused = await anonymous().post('/api/v1/auth/token', { email: user.email, password: PASSWORD })
    expect([refused.status, refused.body]).toEqual([401, { detail: "This account is suspended: ask your organization's admin to restore it" }])
    const guessed = await anonymous().post('/api/v1/auth/token', { email: user.email, password: 'wrong password' })
    expect([guessed.status, guessed.body]).toEqual([401, { detail: 'Incorrect email or password' }])
    expect((await org.admin.api.patch(`/api/v1/shared/users/${user.id}`, { state: 'active' })).status).toBe(200)
    expect((await user.api.get('/api/v1/users/me')).status).toBe(401)
    const login = await anonymous().post('/api/v1/auth/token', { email: user.email, password: PASSWORD })
    expect(login.status).toBe(200)
    expect((await client(t.app, login.body.access_token).get('/api/v1/users/me')).status).toBe(200)
    expect((await user.api.get('/api/v1/users/me')).status).toBe(401)
  })
})

describe('current user', () => {
  it('returns the user, the organization and the assignments at both paths', async () => {
    const crew = await org.addUser('crew')
    const ship = await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Me', imoNumber: '9176187' })
    await t.database.db
      .insertInto('assignments')
      .values({
        id: crypto.randomUUID(),
        organization_id: org.id,
        user_id: crew.id,
        ship_id: ship.body.id,
        role: 'Bosun',
        start_date: '2026-01-01',
        end_date: '2020-01-01',
      })
      .execute()
    for (const url of ['/api/v1/users/me', '/api/v1/shared/users/me', '/api/v1/shared/users/me/']) {
      const res = await crew.api.get(url)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        user: {
          id: crew.id,
          organizationId: org.id,
          email: crew.email,
          firstName: 'Test',
          lastName: 'crew',
          role: 'crew',
          state: 'active',
          lastLogin: null,
          createdAt: expect.any(String),
        },
        organization: { id: org.id, name: expect.any(String), domain: null },
        assignments: [
          {
            id: expect.any(String),
            shipName: 'MV Me',
            shipImoNumber: '9176187',
            role: 'Bosun',
            startDate: '2026-01-01',
            dueDate: null,
            endDate: '2020-01-01',
            isActive: false,
          },
        ],
      })
    }
  })
})
