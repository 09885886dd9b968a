import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { client, useTestApp } from '../../../app.js'
import { createOrg, type TestUser, useOrg } from '../../../factories.js'
import type { Product } from '../../../../src/db/schema.js'

const t = useTestApp()
const org = useOrg(t)
const other = useOrg(t)

const newUser = (role = 'crew') => ({ email: `new-${crypto.randomUUID()}@example.test`, firstName: 'Nia', lastName: 'New', role })

describe('users: create', () => {
  it('creates an active user with a password and a pending one without, with the contract shape', async () => {
    const body = { ...newUser('office_employee'), password: 'long enough password' }
    const res = await org.admin.api.post('/api/v1/shared/users', body)
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.any(String),
      organizationId: org.id,
      email: body.email,
      firstName: 'Nia',
      lastName: 'New',
      role: 'office_employee',
      state: 'active',
      lastLogin: null,
      createdAt: expect.any(String),
    })
    const pending = await org.admin.api.post('/api/v1/shared/users', newUser())
    expect(pending.body.state).toBe('pending')
    const login = await client(t.app).post('/api/v1/auth/token', { email: pending.body.email, password: 'anything at all' })
    expect(login.status).toBe(401)
    const activated = await org.admin.api.patch(`/api/v1/shared/users/${pending.body.id}`, { password: 'a brand new password' })
    expect(activated.body.state).toBe('active')
    expect((await client(t.app).post('/api/v1/auth/token', { email: pending.body.email, password: 'a brand new password' })).status).toBe(
      200,
    )
  })

  it('keeps e-mails unique across the service, case-insensitively (409)', async () => {
    const body = newUser()
    expect((await org.admin.api.post('/api/v1/shared/users', body)).status).toBe(201)
    const again = await other.admin.api.post('/api/v1/shared/users', { ...body, email: body.email.toUpperCase() })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ detail: 'A user with this email already exists' })
  })

  it('lists every problem of a bad body', async () => {
    const res = await org.admin.api.post('/api/v1/shared/users', { email: 'not-an-email', firstName: '', role: 'captain', password: 5 })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'email'], msg: expect.any(String), type: 'value_error' },
        { loc: ['body', 'firstName'], msg: expect.any(String), type: 'string_too_short' },
        { loc: ['body', 'lastName'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'role'], msg: expect.any(String), type: 'enum' },
        { loc: ['body', 'password'], msg: expect.any(String), type: 'string_type' },
      ]),
    )
    expect(res.body.detail).toHaveLength(5)
  })
})

describe('users: field limits', () => {
  // Labels within the e-mail format's limits: 64 + 1 + 63 + 1 + 63 + 1 characters, a last label, then ".test".
  // The local part is unique per run: e-mails are unique across the service, and PostgreSQL keeps them between runs.
  const emailOf = (length: number) =>
    `${crypto.randomUUID().replaceAll('-', '').padEnd(64, 'a')}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(length - 198)}.test`

  it('accepts an e-mail of 254 characters and names of 1 to 300', async () => {
    const body = { email: emailOf(254), firstName: 'x'.repeat(300), lastName: 'y', role: 'crew' }
    expect(body.email).toHaveLength(254)
    const res = await org.admin.api.post('/api/v1/shared/users', body)
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ email: body.email, firstName: body.firstName, lastName: 'y', state: 'pending' })
  })

  it('refuses an e-mail of 255 characters and names of 0 or 301, on create and on PATCH', async () => {
    const res = await org.admin.api.post('/api/v1/shared/users', {
      email: emailOf(255),
      firstName: 'x'.repeat(301),
      lastName: '',
      role: 'crew',
    })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      { loc: ['body', 'email'], msg: expect.any(String), type: 'string_too_long' },
      { loc: ['body', 'firstName'], msg: expect.any(String), type: 'string_too_long' },
      { loc: ['body', 'lastName'], msg: expect.any(String), type: 'string_too_short' },
    ])
    const patch = await org.admin.api.patch(`/api/v1/shared/users/${org.crew.id}`, { email: emailOf(255), lastName: 'z'.repeat(301) })
    expect(patch.body.detail).toEqual([
      { loc: ['body', 'email'], msg: expect.any(String), type: 'string_too_long' },
      { loc: ['body', 'lastName'], msg: expect.any(String), type: 'string_too_long' },
    ])
  })
})

describe('users: who may do what', () => {
  const nonAdmins = (): TestUser[] => [org.officeAdmin, org.officeEmployee, org.crew]

  it('lets only admins create, update and suspend (403 for the others)', async () => {
    const target = await org.addUser('crew')
    for (const user of nonAdmins()) {
      expect((await user.api.post('/api/v1/shared/users', newUser())).status).toBe(403)
      expect((await user.api.patch(`/api/v1/shared/users/${target.id}`, { firstName: 'X' })).status).toBe(403)
      expect((await user.api.delete(`/api/v1/shared/users/${target.id}`)).status).toBe(403)
    }
    const before = (await org.admin.api.get(`/api/v1/shared/users/${target.id}`)).body
    expect(before).toMatchObject({ firstName: 'Test', state: 'active' })
    const patched = await org.admin.api.patch(`/api/v1/shared/users/${target.id}`, { firstName: 'Renamed', role: 'office_employee' })
    expect(patched.status).toBe(200)
    expect(patched.body).toEqual({ ...before, firstName: 'Renamed', role: 'office_employee' })
    expect((await org.admin.api.get(`/api/v1/shared/users/${target.id}`)).body).toEqual(patched.body)
  })

  it('lets staff list and read everyone in the organization, crew only themselves', async () => {
    for (const user of [org.admin, org.officeAdmin, org.officeEmployee]) {
      const list = await user.api.get('/api/v1/shared/users?limit=1000&include_count=true')
      expect(list.status).toBe(200)
      expect(list.body.items.map((u: { id: string }) => u.id)).toEqual(expect.arrayContaining([org.admin.id, org.crew.id]))
      expect(list.body.totalCount).toBe(list.body.items.length)
      expect((await user.api.get(`/api/v1/shared/users/${org.crew.id}`)).status).toBe(200)
    }
    const own = await org.crew.api.get('/api/v1/shared/users')
    expect(own.body.items.map((u: { id: string }) => u.id)).toEqual([org.crew.id])
    expect((await org.crew.api.get(`/api/v1/shared/users/${org.crew.id}`)).status).toBe(200)
    const someoneElse = await org.crew.api.get(`/api/v1/shared/users/${org.admin.id}`)
    expect(someoneElse.status).toBe(404)
    expect(someoneElse.body).toEqual({ detail: 'User not found' })
  })

  it("hides other organizations' users behind 404, indistinguishable from missing ones", async () => {
    const foreign = await org.admin.api.get(`/api/v1/shared/users/${other.crew.id}`)
    const missing = await org.admin.api.get(`/api/v1/shared/users/${crypto.randomUUID()}`)
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual(missing.body)
    expect((await org.admin.api.patch(`/api/v1/shared/users/${other.crew.id}`, { firstName: 'Hacked' })).status).toBe(404)
    expect((await org.admin.api.delete(`/api/v1/shared/users/${other.crew.id}`)).status).toBe(404)
    const list = await org.admin.api.get('/api/v1/shared/users?limit=1000')
    expect(list.body.items.map((u: { id: string }) => u.id)).not.toContain(other.crew.id)
  })

  it('suspends with DELETE (204), keeps the record, and refuses to suspend oneself', async () => {
    const user = await org.addUser('crew')
    const before = (await org.admin.api.get(`/api/v1/shared/users/${user.id}`)).body
    const res = await org.admin.api.delete(`/api/v1/shared/users/${user.id}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect((await org.admin.api.get(`/api/v1/shared/users/${user.id}`)).body).toEqual({ ...before, state: 'suspended' })
    expect((await user.api.get('/api/v1/users/me')).status).toBe(401)
    expect((await org.admin.api.delete(`/api/v1/shared/users/${org.admin.id}`)).status).toBe(409)
  })

  it('restores a suspended user with PATCH {"state":"active"}: tokens from before the suspension stay refused', async () => {
    const user = await org.addUser('crew')
    const before = (await org.admin.api.get(`/api/v1/shared/users/${user.id}`)).body
    await org.admin.api.delete(`/api/v1/shared/users/${user.id}`)
    const restored = await org.admin.api.patch(`/api/v1/shared/users/${user.id}`, { state: 'active' })
    expect(restored.status).toBe(200)
    expect(restored.body).toEqual(before)
    expect((await org.admin.api.get(`/api/v1/shared/users/${user.id}`)).body).toEqual(before)
    expect((await user.api.get('/api/v1/users/me')).status).toBe(401)
  })

  it('answers an empty PATCH with 200 and the user unchanged', async () => {
    const user = await org.addUser('office_employee')
    const before = (await org.admin.api.get(`/api/v1/shared/users/${user.id}`)).body
    const res = await org.admin.api.patch(`/api/v1/shared/users/${user.id}`, {})
    expect(res.status).toBe(200)
    expect(res.body).toEqual(before)
  })

  it('lets crew read themselves with an upper-case id', async () => {
    const res = await org.crew.api.get(`/api/v1/shared/users/${org.crew.id.toUpperCase()}`)
    expect(res.status).toBe(200)
    expect(res.body.id).toBe(org.crew.id)
  })

  it('filters and searches the list', async () => {
    const named = await org.addUser('office_employee', { firstName: 'Zebulon', lastName: 'Quartermaster' })
    const byName = await org.admin.api.get('/api/v1/shared/users?search=zebulon%20quarter')
    expect(byName.body.items.map((u: { id: string }) => u.id)).toEqual([named.id])
    const byRole = await org.admin.api.get('/api/v1/shared/users?role=office_admin&limit=1000')
    expect(byRole.body.items.map((u: { id: string }) => u.id)).toEqual([org.officeAdmin.id])
  })

  it('pages through users with cursors', async () => {
    const first = await org.admin.api.get('/api/v1/shared/users?limit=2')
    expect(first.body.hasMore).toBe(true)
    const second = await org.admin.api.get(`/api/v1/shared/users?limit=2&cursor=${first.body.nextCursor}`)
    expect(second.status).toBe(200)
    const ids = [...first.body.items, ...second.body.items].map((u: { id: string }) => u.id)
    expect(new Set(ids).size).toBe(4)
  })
})

describe('users: restoring', () => {
  it('restores a suspended user who never had a password as pending, and one with a password as active', async () => {
    const noPassword = await org.admin.api.post('/api/v1/shared/users', newUser())
    await org.admin.api.delete(`/api/v1/shared/users/${noPassword.body.id}`)
    const restored = await org.admin.api.patch(`/api/v1/shared/users/${noPassword.body.id}`, { state: 'active' })
    expect(restored.status).toBe(200)
    expect(restored.body.state).toBe('pending')
    const withPassword = await org.addUser('crew')
    await org.admin.api.delete(`/api/v1/shared/users/${withPassword.id}`)
    expect((await org.admin.api.patch(`/api/v1/shared/users/${withPassword.id}`, { state: 'active' })).body.state).toBe('active')
  })

  it('refuses an admin suspending themselves, whatever the letter case of the id', async () => {
    const res = await org.admin.api.delete(`/api/v1/shared/users/${org.admin.id.toUpperCase()}`)
    expect(res.status).toBe(409)
    expect((await org.admin.api.patch(`/api/v1/shared/users/${org.admin.id.toUpperCase()}`, { role: 'crew' })).status).toBe(409)
  })
})

describe('users: session', () => {
  const session = (user: TestUser) => user.api.get('/api/v1/shared/users/me/session')

  it("answers the caller's role, permissions and the organization's products as a list of strings", async () => {
    const res = await session(org.officeAdmin)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      role: 'office_admin',
      roles: ['office_admin'],
      permissions: expect.arrayContaining(['crew:review', 'learn:assignments:write']),
      featureFlags: ['learn', 'crew'],
    })
    const crew = await session(org.crew)
    expect(crew.body).toEqual({ role: 'crew', roles: ['crew'], permissions: expect.any(Array), featureFlags: ['learn', 'crew'] })
    expect(crew.body.permissions).toContain('learn:read:self')
    expect(crew.body.permissions).not.toContain('users:write')
  })

  it('lists only the products the organization has, always in the order learn, crew', async () => {
    const cases: [Product[], Product[]][] = [
      [['learn'], ['learn']],
      [['crew'], ['crew']],
      [
        ['crew', 'learn'],
        ['learn', 'crew'],
      ],
    ]
    for (const [products, featureFlags] of cases) {
      const small = await createOrg(t.app, t.database.db, { products })
      const res = await session(small.crew)
      expect([products, res.status, res.body.featureFlags]).toEqual([products, 200, featureFlags])
    }
  })

  it('reports the current role and products, not the ones the token was issued with', async () => {
    const small = await createOrg(t.app, t.database.db)
    const user = await small.addUser('office_employee')
    expect((await small.admin.api.patch(`/api/v1/shared/users/${user.id}`, { role: 'office_admin' })).status).toBe(200)
    expect((await session(user)).body).toMatchObject({ role: 'office_admin', roles: ['office_admin'] })
    // A product change has no API: it reaches the app as the database's change announcement.
    await sql`update organizations set products = array['crew'] where id = ${small.id}`.execute(t.database.db)
    let featureFlags: string[] = []
    for (let i = 0; i < 50 && featureFlags.length !== 1; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 20))
      featureFlags = (await session(user)).body.featureFlags
    }
    expect(featureFlags).toEqual(['crew'])
  })

  it("refuses a suspended user's token (401)", async () => {
    const user = await org.addUser('crew')
    expect((await org.admin.api.delete(`/api/v1/shared/users/${user.id}`)).status).toBe(204)
    expect((await session(user)).status).toBe(401)
  })
})
