import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays, todayUtc } from '../src/lib/dates.js'
import { createAssignment, createShip } from './fixtures/assignments.js'
import { buildTestApp, type TestApp } from './app.js'
import { createOrg, type TestOrg } from './factories.js'
import { type Operation, type Parameter, servedOperations, typesOf, urlOf } from './served-routes.js'

// DECISIONS §9: query strings (and paths) are read as their declared types, as FastAPI reads them.
const INT_REJECTED = ['1e1', '+5', '5.0', ' 5', '5 ', '0x10', '', '1_0', '٣', '5,0']
const BOOL_REJECTED = ['yes', 'no', 'on', 'off', 't', 'f', 'TRUE', 'False', '', '2', ' true']
const INT_ISSUE = { msg: 'Input should be a valid integer', type: 'int_parsing' }
const BOOL_ISSUE = { msg: 'Input should be a valid boolean', type: 'bool_parsing' }

let t: TestApp
let org: TestOrg
let operations: Operation[]
beforeAll(async () => {
  t = await buildTestApp()
  org = await createOrg(t.app, t.database.db)
  operations = await servedOperations(t.app)
})
afterAll(() => t.app.close())

/** Every (operation, parameter) of a query or path parameter declared with that type. */
const parametersOf = (type: string) =>
  operations.flatMap((op) =>
    op.parameters.filter((p) => p.in !== 'header' && typesOf(p.schema).includes(type)).map((parameter) => ({ op, parameter })),
  )

/** The problems reported at the parameter when it is sent with this value (an admin of a fresh organization calls). */
async function issuesAt(op: Operation, parameter: Parameter, value: string) {
  const url = urlOf(op, { [parameter.in]: { [parameter.name]: value } })
  const res = await t.app.inject({ method: op.method, url, headers: { authorization: `Bearer ${org.admin.token}` } })
  const loc = [parameter.in === 'query' ? 'query' : 'path', parameter.name]
  const issues = res.statusCode === 422 ? res.json().detail : []
  return { status: res.statusCode, issues: issues.filter((i: { loc: unknown }) => JSON.stringify(i.loc) === JSON.stringify(loc)), loc }
}

const named = (list: { op: Operation; parameter: Parameter }[]) =>
  list.map(({ op, parameter }) => `${op.method} ${op.path} ${parameter.name}`)

describe('integers in query strings and paths', () => {
  it('covers every served route with an integer parameter', () => {
    expect(named(parametersOf('integer'))).toEqual(
      expect.arrayContaining([
        'GET /api/v1/courses/ limit',
        'GET /api/v1/assignments/ limit',
        'GET /api/v1/shared/users limit',
        'GET /api/v1/learn/admin/analytics/course-difficulty limit',
        'GET /api/v1/shared/uploads/object expires',
      ]),
    )
  })

  it('refuses anything but decimal digits with an optional minus, at the parameter, on every route', async () => {
    for (const { op, parameter } of parametersOf('integer')) {
      for (const value of INT_REJECTED) {
        if (value === '' && parameter.in === 'path') continue
        const { status, issues, loc } = await issuesAt(op, parameter, value)
        expect([op.path, value, status, issues]).toEqual([op.path, value, 422, [{ loc, ...INT_ISSUE }]])
      }
    }
  })

  it('reads digits, with a leading minus, as the integer on every route', async () => {
    for (const { op, parameter } of parametersOf('integer')) {
      expect([op.path, (await issuesAt(op, parameter, '7')).issues]).toEqual([op.path, []])
      const negative = (await issuesAt(op, parameter, '-1')).issues
      expect(negative.map((i: { type: string }) => i.type)).not.toContain('int_parsing')
    }
  })

  it('applies the range after reading: -1 and 1001 are out of range, 007 is 7', async () => {
    const under = await org.admin.api.get('/api/v1/courses?limit=-1')
    expect(under.body).toEqual({
      detail: [{ loc: ['query', 'limit'], msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal' }],
    })
    const over = await org.admin.api.get('/api/v1/learn/admin/analytics/course-difficulty?limit=1001')
    expect(over.body.detail).toEqual([
      { loc: ['query', 'limit'], msg: 'Input should be less than or equal to 1000', type: 'less_than_equal' },
    ])
    expect((await org.admin.api.get('/api/v1/learn/admin/analytics/course-difficulty?limit=007')).status).toBe(200)
  })

  it('reports a bad integer and a bad boolean of one request together, in declaration order', async () => {
    const res = await org.admin.api.get('/api/v1/shared/ships?include_count=yes&limit=1e1')
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      detail: [
        { loc: ['query', 'limit'], ...INT_ISSUE },
        { loc: ['query', 'include_count'], ...BOOL_ISSUE },
      ],
    })
  })
})

describe('booleans in query strings', () => {
  it('covers every served route with a boolean parameter', () => {
    expect(named(parametersOf('boolean'))).toEqual(
      expect.arrayContaining([
        'GET /api/v1/courses/ include_count',
        'GET /api/v1/assignments/ is_active',
        'GET /api/v1/learn/registrations expand',
        'GET /api/v1/learn/registrations/{registration_id} expand',
      ]),
    )
  })

  it('refuses anything but true, false, 1 and 0, at the parameter, on every route', async () => {
    for (const { op, parameter } of parametersOf('boolean')) {
      for (const value of BOOL_REJECTED) {
        const { status, issues, loc } = await issuesAt(op, parameter, value)
        expect([op.path, value, status, issues]).toEqual([op.path, value, 422, [{ loc, ...BOOL_ISSUE }]])
      }
      for (const value of ['true', 'false', '1', '0']) {
        expect([op.path, value, (await issuesAt(op, parameter, value)).issues]).toEqual([op.path, value, []])
      }
    }
  })

  it('reads 1 as true and 0 as false: include_count', async () => {
    for (const value of ['1', 'true']) {
      expect((await org.admin.api.get(`/api/v1/courses?include_count=${value}`)).body.totalCount).toBe(0)
    }
    for (const value of ['0', 'false']) {
      expect((await org.admin.api.get(`/api/v1/courses?include_count=${value}`)).body.totalCount).toBeNull()
    }
  })

  it('reads 1 as true and 0 as false: is_active', async () => {
    const ship = await createShip(org)
    const ended = await createAssignment(org, org.crew, ship, { endDate: addDays(todayUtc(), -1) })
    const active = await createAssignment(org, org.officeEmployee, ship)
    const ids = async (value: string) => {
      const res = await org.admin.api.get(`/api/v1/assignments?is_active=${value}`)
      expect(res.status).toBe(200)
      return res.body.items.map((a: { id: string }) => a.id)
    }
    expect([await ids('1'), await ids('true')]).toEqual([[active.id], [active.id]])
    expect([await ids('0'), await ids('false')]).toEqual([[ended.id], [ended.id]])
  })
})
