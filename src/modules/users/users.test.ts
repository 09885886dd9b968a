import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, client, type TestApp } from '../../../test/app.js'
import { createOrg, type TestOrg, type TestUser } from '../../../test/factories.js'

let t: TestApp
let org: TestOrg
let other: TestOrg
beforeAll(async () => {
  t = await buildTestApp()
  ;[org, other] = await Promise.all([createOrg(t.app, t.database.db), createOrg(t.app, t.database.db)])
})
afterAll(() => t.app.close())

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
    expect((await client(t.app).post('/api/v1/auth/token', { email: pending.body.email, password: 'a brand new password' })).status).toBe(200)
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

describe('users: who may do what', () => {
  const nonAdmins = (): TestUser[] => [org.officeAdmin, org.officeEmployee, org.crew]

  it('lets only admins create, update and suspend (403 for the others)', async () => {
    const target = await org.addUser('crew')
    for (const user of nonAdmins()) {
      expect((await user.api.post('/api/v1/shared/users', newUser())).status).toBe(403)
      expect((await user.api.patch(`/api/v1/shared/users/${target.id}`, { firstName: 'X' })).status).toBe(403)
      expect((await user.api.delete(`/api/v1/shared/users/${target.id}`)).status).toBe(403)
    }
    const patched = await org.admin.api.patch(`/api/v1/shared/users/${target.id}`, { firstName: 'Renamed', role: 'office_employee' })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ firstName: 'Renamed', role: 'office_employee' })
    expect((await org.admin.api.get(`/api/v1/shared/users/${target.id}`)).body.firstName).toBe('Renamed')
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
    expect((await org.admin.api.delete(`/api/v1/shared/users/${user.id}`)).status).toBe(204)
    expect((await org.admin.api.get(`/api/v1/shared/users/${user.id}`)).body.state).toBe('suspended')
    expect((await org.admin.api.delete(`/api/v1/shared/users/${org.admin.id}`)).status).toBe(409)
  })

  it('filters and searches the list', async () => {
    const named = await org.addUser('office_employee', { firstName: 'Zebulon', lastName: 'Quartermaster' })
    const byName = await org.admin.api.get('/api/v1/shared/users?search=zebulon%20quarter')
    expect(byName.body.items.map((u: { id: string }) => u.id)).toEqual([named.id])
    const byRole = await org.admin.api.get('/api/v1/shared/users?role=office_admin&limit=1000')
    expect(byRole.body.items.every((u: { role: string }) => u.role === 'office_admin')).toBe(true)
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
