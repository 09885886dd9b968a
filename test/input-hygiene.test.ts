import { describe, expect, it } from 'vitest'
import { createShip } from './fixtures/assignments.js'
import { useTestApp } from './app.js'
import { useOrg } from './factories.js'
import { type JsonSchema, type Operation, servedOperations, typesOf, urlOf } from './served-routes.js'

// DECISIONS §9: text PostgreSQL cannot store (U+0000, unpaired surrogates) and bytes that are not
// UTF-8 are a 422 at their field, in every part of every route; never a 500, nothing written.
const NUL = { msg: 'String should not contain the NUL character', type: 'string_nul' }
const UNPAIRED = { msg: 'String should be valid Unicode', type: 'string_unicode' }
const UNDECODABLE = { msg: 'Percent-encoded bytes should be valid UTF-8', type: 'string_unicode' }
const JSON_INVALID = { detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }] }

const t = useTestApp()
const org = useOrg(t)

const course = (fields: Record<string, unknown> = {}) => ({
  organization_id: org.id,
  s3_path: 'courses/fire',
  launch_file: 'index.html',
  title: 'Fire fighting',
  ...fields,
})
const coursesOfOrg = async () =>
  (await t.database.db.selectFrom('courses').select('title').where('organization_id', '=', org.id).execute()).map((c) => c.title)
const postRaw = (url: string, payload: string | Buffer, contentType = 'application/json') =>
  t.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${org.admin.token}`, 'content-type': contentType } })

describe('NUL and unpaired surrogates in bodies', () => {
  it('refuses a NUL in a course title at the field and writes nothing', async () => {
    const res = await org.admin.api.post('/api/v1/courses/', course({ title: 'Fire\u0000fighting' }))
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ detail: [{ loc: ['body', 'title'], ...NUL }] })
    expect(await coursesOfOrg()).toEqual([])
  })

  it('lists them with every other problem of the request, one per field', async () => {
    const res = await org.admin.api.post('/api/v1/courses', course({ title: 'a\u0000'.repeat(200), description: 'x\ud800', s3_path: '' }))
    expect(res.body).toEqual({
      detail: [
        { loc: ['body', 'title'], ...NUL },
        { loc: ['body', 'description'], ...UNPAIRED },
        { loc: ['body', 's3_path'], msg: expect.any(String), type: 'string_too_short' },
      ],
    })
    expect(await coursesOfOrg()).toEqual([])
  })

  it('finds them in arrays, nested objects, ignored fields and object keys', async () => {
    const ship = await createShip(org)
    const bulk = await org.admin.api.post('/api/v1/assignments/bulk/create', {
      userIds: [org.crew.id, 'a\u0000'],
      shipId: ship.id,
      role: 'Bosun',
    })
    expect(bulk.body).toEqual({ detail: [{ loc: ['body', 'userIds', 1], ...NUL }] })
    expect(await t.database.db.selectFrom('assignments').select('id').where('organization_id', '=', org.id).execute()).toEqual([])

    const extra = { notes: ['fine', 'x\u0000', { deep: '\udc00' }], 'k\u0000': 1 }
    const res = await org.admin.api.post('/api/v1/courses', course({ extra }))
    expect(res.body).toEqual({
      detail: [
        { loc: ['body', 'extra'], ...NUL },
        { loc: ['body', 'extra', 'notes', 1], ...NUL },
        { loc: ['body', 'extra', 'notes', 2, 'deep'], ...UNPAIRED },
      ],
    })
    expect(await coursesOfOrg()).toEqual([])
  })

  it('reads the JSON escape \\u0000 and raw surrogate escapes like the characters', async () => {
    for (const [title, issue] of [
      ['a\\u0000b', NUL],
      ['a\\ud800b', UNPAIRED],
      ['\\udfff', UNPAIRED],
    ] as const) {
      const res = await postRaw('/api/v1/courses', JSON.stringify(course({ title: 'X' })).replace('"X"', `"${title}"`))
      expect(res.json()).toEqual({ detail: [{ loc: ['body', 'title'], ...issue }] })
    }
    expect(await coursesOfOrg()).toEqual([])
  })

  it('keeps paired surrogates (emoji, astral characters) exactly', async () => {
    const res = await org.admin.api.post('/api/v1/courses', course({ title: 'Lifeboat 🚢 drill 𝄞' }))
    expect(res.status).toBe(201)
    expect(await coursesOfOrg()).toEqual(['Lifeboat 🚢 drill 𝄞'])
    await t.database.db.deleteFrom('courses').where('organization_id', '=', org.id).execute()
  })

  it('refuses a NUL in a PATCH and leaves the row as it was', async () => {
    const ship = await createShip(org)
    const res = await org.admin.api.patch(`/api/v1/shared/ships/${ship.id}`, { name: 'MV \u0000', portOfRegistry: 'Oslo' })
    expect(res.body).toEqual({ detail: [{ loc: ['body', 'name'], ...NUL }] })
    const row = await t.database.db.selectFrom('ships').selectAll().where('id', '=', ship.id).executeTakeFirstOrThrow()
    expect([row.name, row.port_of_registry]).toEqual([ship.name, null])
  })

  it('walks a deeply nested body without overflowing the stack', async () => {
    const depth = 200_000
    const payload = JSON.stringify(course()).replace(/}$/, `,"x":${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}}`)
    const res = await postRaw('/api/v1/courses', payload)
    expect(res.statusCode).toBe(422)
    expect(res.json().detail).toEqual([{ loc: ['body', 'x', ...Array(depth).fill(0)], ...NUL }])
  })
})

describe('every route with a JSON body', () => {
  /** Each string field of a body schema, at any depth (array items at index 0). */
  const stringFields = (schema: JsonSchema, at: (string | number)[] = []): (string | number)[][] => {
    if (typesOf(schema).includes('string')) return [at]
    if (schema.properties) return Object.entries(schema.properties).flatMap(([name, s]) => stringFields(s, [...at, name]))
    if (schema.items) return stringFields(schema.items, [...at, 0])
    return []
  }
  const bodyWith = (at: (string | number)[], value: string): unknown =>
    at.length === 0 ? value : typeof at[0] === 'number' ? [bodyWith(at.slice(1), value)] : { [at[0]]: bodyWith(at.slice(1), value) }

  it('refuses a NUL or an unpaired surrogate in each string field, at that field', async () => {
    const routes = (await servedOperations(t.app)).filter((op): op is Operation & { jsonBody: JsonSchema } => !!op.jsonBody)
    const fields = routes.flatMap((op) => stringFields(op.jsonBody).map((at) => ({ op, at })))
    expect(fields.length).toBeGreaterThan(100)
    for (const { op, at } of fields) {
      for (const [value, issue] of [
        ['bad\u0000', NUL],
        ['bad\ud800', UNPAIRED],
      ] as const) {
        const res = await t.app.inject({
          method: op.method,
          url: urlOf(op),
          payload: bodyWith(at, value) as object,
          headers: { authorization: `Bearer ${org.admin.token}` },
        })
        const atField =
          res.statusCode === 422
            ? res.json().detail.filter((i: { loc: unknown[] }) => JSON.stringify(i.loc) === JSON.stringify(['body', ...at]))
            : []
        expect([op.method, op.path, at, res.statusCode, atField]).toEqual([
          op.method,
          op.path,
          at,
          422,
          [{ loc: ['body', ...at], ...issue }],
        ])
      }
    }
    expect(await coursesOfOrg()).toEqual([])
  })
})

describe('query strings and paths', () => {
  it('refuses a NUL in a query parameter or a path parameter', async () => {
    for (const base of ['/api/v1/courses', '/api/v1/learn/curriculums', '/api/v1/crew/roster']) {
      expect((await org.admin.api.get(`${base}?search=fire%00`)).body).toEqual({ detail: [{ loc: ['query', 'search'], ...NUL }] })
    }
    expect((await org.admin.api.get('/api/v1/courses?fire%00=1')).body).toEqual({ detail: [{ loc: ['query'], ...NUL }] })
    expect((await org.admin.api.get('/api/v1/courses/%00')).body).toEqual({ detail: [{ loc: ['path', 'course_id'], ...NUL }] })
  })

  it('refuses escapes that are not UTF-8 (invalid, overlong, surrogate) at the query parameter', async () => {
    for (const escapes of ['%FF', '%C0%AE', '%ED%A0%80', '%E2%82', 'ok%80']) {
      const res = await org.admin.api.get(`/api/v1/courses?limit=5&search=${escapes}`)
      expect([escapes, res.status, res.body]).toEqual([escapes, 422, { detail: [{ loc: ['query', 'search'], ...UNDECODABLE }] }])
    }
    expect((await org.admin.api.get('/api/v1/courses?limit=%FF')).body).toEqual({ detail: [{ loc: ['query', 'limit'], ...UNDECODABLE }] })
    expect((await org.admin.api.get('/api/v1/courses?%C0%AE=1')).body).toEqual({ detail: [{ loc: ['query'], ...UNDECODABLE }] })
  })

  it('reads valid UTF-8 escapes, and a % without two hex digits as itself', async () => {
    await org.admin.api.post('/api/v1/courses', course({ title: 'Café 100% safe' }))
    for (const search of ['Caf%C3%A9', '100%', '100%25', '0%+s']) {
      const res = await org.admin.api.get(`/api/v1/courses?search=${search}`)
      expect([search, res.status, res.body.items?.length]).toEqual([search, 200, 1])
    }
    await t.database.db.deleteFrom('courses').where('organization_id', '=', org.id).execute()
  })

  it('refuses a path whose escapes are not UTF-8 with a 422 at the path', async () => {
    for (const escapes of ['%FF', '%C0%AE', '%ED%A0%80']) {
      const res = await org.admin.api.get(`/api/v1/courses/${escapes}`)
      expect([escapes, res.status, res.body]).toEqual([escapes, 422, { detail: [{ loc: ['path'], ...UNDECODABLE }] }])
    }
    // The router's other refusal before any route runs keeps the contract's body too.
    const long = await org.admin.api.get(`/api/v1/courses/${'a'.repeat(101)}`)
    expect([long.status, long.body]).toEqual([414, { detail: expect.any(String) }])
  })
})

describe('bodies that are not UTF-8', () => {
  it('refuses a JSON body with invalid, overlong or surrogate byte sequences as json_invalid, writing nothing', async () => {
    for (const bytes of [[0xff], [0xc0, 0xae], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const [head, tail] = JSON.stringify(course({ title: 'X' })).split('X')
      const res = await postRaw('/api/v1/courses', Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail)]))
      expect([bytes, res.statusCode, res.json()]).toEqual([bytes, 422, JSON_INVALID])
    }
    expect(await coursesOfOrg()).toEqual([])
  })

  it('refuses the login form with escapes that are not UTF-8 or a NUL, at the field', async () => {
    const login = (form: string) => postRaw('/api/v1/auth/token', form, 'application/x-www-form-urlencoded')
    expect((await login(`username=${encodeURIComponent(org.crew.email)}%FF&password=x`)).json()).toEqual({
      detail: [{ loc: ['body', 'username'], ...UNDECODABLE }],
    })
    expect((await login(`username=${encodeURIComponent(org.crew.email)}%00&password=x`)).json()).toEqual({
      detail: [{ loc: ['body', 'username'], ...NUL }],
    })
    expect((await login('username=a&password=%ED%A0%80')).json()).toEqual({ detail: [{ loc: ['body', 'password'], ...UNDECODABLE }] })
    const failures = await t.database.db
      .selectFrom('login_failures')
      .select('email_lower')
      .where('email_lower', 'like', `%${org.crew.email}%`)
      .execute()
    expect(failures).toEqual([])
  })
})
