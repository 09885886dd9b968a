import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { createAssignment, createShip, NIL, type TestShip } from '../../../fixtures/assignments.js'
import { readiness, setRequirements } from '../../../fixtures/readiness.js'

let t: TestApp
let org: TestOrg
let other: TestOrg
let ship: TestShip
const ids: Record<string, string> = {}

beforeAll(async () => {
  t = await buildTestApp()
  ;[org, other] = await Promise.all([createOrg(t.app, t.database.db), createOrg(t.app, t.database.db)])
  ship = await createShip(org)
  ids.crew = (await createAssignment(org, org.crew, ship)).id
  ids.employee = (await createAssignment(org, org.officeEmployee, ship)).id
  ids.colleague = (await createAssignment(org, await org.addUser('crew'), ship)).id
  ids.theirs = (await createAssignment(other, other.crew, await createShip(other))).id
  await setRequirements(org, [{ role: '*', documentTypes: ['passport'] }])
})
afterAll(() => t.app.close())

const one = (id: string) => `/api/v1/learn/assignments/${id}/readiness`
const NOT_FOUND = [404, { detail: 'Assignment not found' }]

describe('readiness: who sees what', () => {
  it('answers at both paths, the same verdict', async () => {
    const verdict = await readiness(org.admin, ids.crew, '2030-01-10')
    const alias = await org.admin.api.get(`/api/v1/assignments/${ids.crew}/readiness/?as_of=2030-01-10`)
    expect([alias.status, alias.body]).toEqual([200, verdict])
    expect(verdict.blockers).toMatchObject([{ code: 'document_missing' }])
  })

  it('shows admins and office admins any assignment of the organization, crew and office employees only their own', async () => {
    for (const user of [org.admin, org.officeAdmin]) {
      for (const id of [ids.crew, ids.employee, ids.colleague]) expect((await user.api.get(one(id))).status).toBe(200)
    }
    expect((await org.crew.api.get(one(ids.crew.toUpperCase()))).status).toBe(200)
    expect((await org.officeEmployee.api.get(one(ids.employee))).status).toBe(200)
    for (const [user, id] of [
      [org.crew, ids.colleague],
      [org.crew, ids.employee],
      [org.officeEmployee, ids.crew],
    ] as const) {
      const res = await user.api.get(one(id))
      expect([res.status, res.body]).toEqual(NOT_FOUND)
    }
  })

  it("answers another organization's assignment exactly like a missing one (404)", async () => {
    for (const id of [ids.theirs, NIL]) {
      const res = await org.admin.api.get(one(id))
      expect([res.status, res.body]).toEqual(NOT_FOUND)
      expect((await org.admin.api.get(`/api/v1/assignments/${id}/readiness`)).status).toBe(404)
    }
  })

  it('lists the fleet to staff only, office employees seeing their own assignments', async () => {
    const fleet = async (user = org.admin) =>
      (await user.api.get('/api/v1/learn/readiness')).body.items.map((i: { assignmentId: string }) => i.assignmentId)
    expect((await fleet()).sort()).toEqual([ids.crew, ids.employee, ids.colleague].sort())
    expect((await fleet(org.officeAdmin)).sort()).toEqual([ids.crew, ids.employee, ids.colleague].sort())
    expect(await fleet(org.officeEmployee)).toEqual([ids.employee])
    expect(await fleet(other.admin)).toEqual([ids.theirs])
    for (const url of ['/api/v1/learn/readiness', `/api/v1/shared/ships/${ship.id}/readiness`]) {
      const res = await org.crew.api.get(url)
      expect([res.status, res.body]).toEqual([403, { detail: 'Not enough permissions' }])
    }
    expect((await org.officeEmployee.api.get(`/api/v1/shared/ships/${ship.id}/readiness`)).body.assignments).toBe(3)
  })

  it('needs both products for every readiness operation (403)', async () => {
    for (const [products, missing] of [
      [['learn'], 'crew'],
      [['crew'], 'learn'],
    ] as const) {
      const lone = await createOrg(t.app, t.database.db, { products: [...products] })
      const theirShip = await createShip(lone)
      for (const url of [
        one(NIL),
        `/api/v1/assignments/${NIL}/readiness`,
        '/api/v1/learn/readiness',
        `/api/v1/shared/ships/${theirShip.id}/readiness`,
      ]) {
        const res = await lone.admin.api.get(url)
        expect([res.status, res.body], url).toEqual([403, { detail: `Your organization does not have the ${missing} product` }])
      }
    }
  })
})

describe('readiness: documentation', () => {
  it('lists each new operation once, at the contract path, with a summary and a description', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json()
    expect(doc.paths['/api/v1/assignments/{assignment_id}/readiness']).toBeUndefined()
    const operations = [
      ['/api/v1/shared/organization', 'get'],
      ['/api/v1/shared/organization', 'patch'],
      ['/api/v1/crew/requirements', 'get'],
      ['/api/v1/crew/requirements', 'put'],
      ['/api/v1/learn/assignments/{assignment_id}/readiness', 'get'],
      ['/api/v1/learn/readiness', 'get'],
      ['/api/v1/shared/ships/{ship_id}/readiness', 'get'],
      ['/api/v1/crew/expiring', 'get'],
    ]
    for (const [path, method] of operations) {
      expect(doc.paths[path][method], `${method} ${path}`).toMatchObject({ summary: expect.any(String), description: expect.any(String) })
    }
  })
})

describe('readiness: bad input', () => {
  it('refuses bad dates and ids at the field (422)', async () => {
    for (const asOf of ['2030-02-30', '0000-01-01', '2030-1-1', 'today']) {
      const res = await org.admin.api.get(`${one(ids.crew)}?as_of=${asOf}`)
      expect([res.status, res.body.detail]).toEqual([422, [{ loc: ['query', 'as_of'], msg: expect.any(String), type: 'date_parsing' }]])
    }
    const both = await org.admin.api.get('/api/v1/learn/assignments/nope/readiness?as_of=x')
    expect(both.body.detail.map((d: { loc: unknown[]; type: string }) => [d.loc, d.type])).toEqual([
      [['path', 'assignment_id'], 'uuid_parsing'],
      [['query', 'as_of'], 'date_parsing'],
    ])
    const ship_ = await org.admin.api.get('/api/v1/shared/ships/nope/readiness')
    expect(ship_.body.detail).toEqual([{ loc: ['path', 'ship_id'], msg: expect.any(String), type: 'uuid_parsing' }])
  })

  it('refuses bad fleet filters, all at once', async () => {
    const res = await org.admin.api.get(
      '/api/v1/learn/readiness?ready=maybe&code=late&ship_id=x&user_id=y&is_active=2&as_of=2030-13-01&limit=0&cursor=zz',
    )
    expect(res.status).toBe(422)
    expect(res.body.detail.map((d: { loc: unknown[]; type: string }) => [d.loc[1], d.type]).sort()).toEqual(
      [
        ['limit', 'greater_than_equal'],
        ['as_of', 'date_parsing'],
        ['ship_id', 'value_error'],
        ['user_id', 'uuid_parsing'],
        ['ready', 'bool_parsing'],
        ['code', 'enum'],
        ['is_active', 'bool_parsing'],
      ].sort(),
    )
    const cursor = await org.admin.api.get('/api/v1/learn/readiness?cursor=zz')
    expect(cursor.body).toEqual({ detail: [{ loc: ['query', 'cursor'], msg: 'Invalid cursor', type: 'value_error' }] })
    const forged = Buffer.from(JSON.stringify(['2030-02-30', NIL])).toString('base64url')
    expect((await org.admin.api.get(`/api/v1/learn/readiness?cursor=${forged}`)).status).toBe(422)
  })
})
