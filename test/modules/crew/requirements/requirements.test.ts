import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'

let t: TestApp
let org: TestOrg
let other: TestOrg

beforeAll(async () => {
  t = await buildTestApp()
  ;[org, other] = await Promise.all([createOrg(t.app, t.database.db), createOrg(t.app, t.database.db)])
})
afterAll(() => t.app.close())

const URL = '/api/v1/crew/requirements'
const MATRIX = [
  { role: '*', documentTypes: ['passport'], certificateTypes: ['stcw_basic_safety', 'medical'], minSeaServiceDays: null },
  { role: 'Captain', documentTypes: ['us_visa', 'seaman_book'], certificateTypes: ['deck_certificate'], minSeaServiceDays: null },
  { role: 'Cook', documentTypes: [], certificateTypes: [], minSeaServiceDays: null },
]
const storedRows = (orgId: string) =>
  t.database.db
    .selectFrom('requirements')
    .select(['position', 'role', 'document_types', 'certificate_types'])
    .where('organization_id', '=', orgId)
    .orderBy('position')
    .execute()
const detail = (res: { body: { detail: { loc: unknown[]; type: string }[] } }) => res.body.detail.map((d) => [d.loc, d.type])

describe('requirements: read and replace', () => {
  it('starts empty, for every role', async () => {
    for (const user of [org.admin, org.officeAdmin, org.officeEmployee, org.crew]) {
      expect(await user.api.get(URL)).toMatchObject({ status: 200, body: { items: [] } })
    }
  })

  it('replaces the whole matrix, keeping the order written, and every role reads it', async () => {
    const res = await org.admin.api.put(URL, { items: MATRIX })
    expect([res.status, res.body]).toEqual([200, { items: MATRIX }])
    expect((await org.crew.api.get(`${URL}/`)).body).toEqual({ items: MATRIX })
    const second = [{ role: 'Bosun', documentTypes: ['national_id'] }]
    const replaced = await org.admin.api.put(URL, { items: second })
    expect(replaced.body).toEqual({
      items: [{ role: 'Bosun', documentTypes: ['national_id'], certificateTypes: [], minSeaServiceDays: null }],
    })
    expect(await storedRows(org.id)).toEqual([{ position: 0, role: 'Bosun', document_types: ['national_id'], certificate_types: [] }])
    expect(await storedRows(other.id)).toEqual([])
    expect((await org.admin.api.put(URL, { items: [] })).body).toEqual({ items: [] })
    expect(await storedRows(org.id)).toEqual([])
  })

  it('stores roles trimmed and a type listed twice once', async () => {
    const res = await org.admin.api.put(URL, {
      items: [{ role: '  Chief Engineer \t', certificateTypes: ['medical', 'medical', 'other'] }],
    })
    expect(res.body).toEqual({
      items: [{ role: 'Chief Engineer', documentTypes: [], certificateTypes: ['medical', 'other'], minSeaServiceDays: null }],
    })
    expect((await storedRows(org.id))[0]).toMatchObject({ role: 'Chief Engineer', certificate_types: ['medical', 'other'] })
  })

  it('takes 200 items and refuses 201 at the list', async () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ role: `Role ${i}`, documentTypes: ['passport'] }))
    expect((await org.admin.api.put(URL, { items: items(200) })).status).toBe(200)
    expect(await storedRows(org.id)).toHaveLength(200)
    const res = await org.admin.api.put(URL, { items: items(201) })
    expect([res.status, detail(res)]).toEqual([422, [[['body', 'items'], 'too_long']]])
    expect(await storedRows(org.id)).toHaveLength(200)
  })

  it('refuses a role repeated after trimming, case-insensitively, at the later one', async () => {
    const before = await storedRows(org.id)
    const res = await org.admin.api.put(URL, {
      items: [{ role: 'Bosun' }, { role: 'Cook' }, { role: ' bosun ' }, { role: '*' }, { role: 'COOK' }, { role: ' * ' }],
    })
    expect([res.status, detail(res)]).toEqual([
      422,
      [
        [['body', 'items', 2, 'role'], 'value_error'],
        [['body', 'items', 4, 'role'], 'value_error'],
        [['body', 'items', 5, 'role'], 'value_error'],
      ],
    ])
    expect(await storedRows(org.id)).toEqual(before)
  })

  it('refuses unknown types at their index, bad roles and a missing list, all at once', async () => {
    const res = await org.admin.api.put(URL, {
      items: [
        { role: 'Bosun', documentTypes: ['passport', 'medical'], certificateTypes: ['passport'] },
        { role: '', documentTypes: 'passport' },
        { role: 'x'.repeat(101) },
        { documentTypes: [] },
      ],
    })
    expect([res.status, detail(res)]).toEqual([
      422,
      [
        [['body', 'items', 0, 'documentTypes', 1], 'enum'],
        [['body', 'items', 0, 'certificateTypes', 0], 'enum'],
        [['body', 'items', 1, 'role'], 'string_too_short'],
        [['body', 'items', 1, 'documentTypes'], 'list_type'],
        [['body', 'items', 2, 'role'], 'string_too_long'],
        [['body', 'items', 3, 'role'], 'missing'],
      ],
    ])
    const blank = await org.admin.api.put(URL, { items: [{ role: '   ' }] })
    expect([blank.status, detail(blank)]).toEqual([422, [[['body', 'items', 0, 'role'], 'string_too_short']]])
    const none = await org.admin.api.put(URL, {})
    expect([none.status, detail(none)]).toEqual([422, [[['body', 'items'], 'missing']]])
  })

  it('is replaced by admins only (403), and needs the crew product (403)', async () => {
    for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
      expect(await user.api.put(URL, { items: [] })).toMatchObject({ status: 403, body: { detail: 'Not enough permissions' } })
    }
    const learnOnly = await createOrg(t.app, t.database.db, { products: ['learn'] })
    for (const res of [await learnOnly.admin.api.get(URL), await learnOnly.admin.api.put(URL, { items: [] })]) {
      expect([res.status, res.body]).toEqual([403, { detail: 'Your organization does not have the crew product' }])
    }
  })
})
