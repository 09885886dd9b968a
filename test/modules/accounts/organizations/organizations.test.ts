import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'

let t: TestApp
let org: TestOrg
let other: TestOrg

beforeAll(async () => {
  t = await buildTestApp({ EXPIRING_SOON_DAYS: '60' })
  ;[org, other] = await Promise.all([createOrg(t.app, t.database.db, { name: 'Blue Line' }), createOrg(t.app, t.database.db)])
})
afterAll(() => t.app.close())

const URL = '/api/v1/shared/organization'
const DEFAULTS = {
  defaultExpiryWindowDays: 60,
  expiryWindowDays: {},
  validityMarginDays: {},
  openEndedHorizonDays: 180,
  expiryNotificationDays: [90, 60, 30, 7],
}
const stored = async (orgId: string) =>
  t.database.db.selectFrom('organizations').select(['name', 'settings']).where('id', '=', orgId).executeTakeFirstOrThrow()

describe('organization: read', () => {
  it('answers every role with the organization and its default settings (EXPIRING_SOON_DAYS as the default window)', async () => {
    for (const user of [org.admin, org.officeAdmin, org.officeEmployee, org.crew]) {
      const res = await user.api.get(URL)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ id: org.id, name: 'Blue Line', domain: null, products: ['learn', 'crew'], settings: DEFAULTS })
    }
  })

  it('is reachable without either product (it is shared)', async () => {
    const bare = await createOrg(t.app, t.database.db, { products: [] })
    expect((await bare.crew.api.get(`${URL}/`)).status).toBe(200)
  })
})

describe('organization: update', () => {
  it('merges settings keys, and the per-type maps entry by entry; null removes an entry or brings a key back to its default', async () => {
    const first = await org.admin.api.patch(URL, {
      name: 'Blue Line Shipping',
      settings: { expiryWindowDays: { passport: 180, medical: 30 }, validityMarginDays: { passport: 180 }, openEndedHorizonDays: 120 },
    })
    expect(first.status).toBe(200)
    expect(first.body.settings).toEqual({
      ...DEFAULTS,
      expiryWindowDays: { passport: 180, medical: 30 },
      validityMarginDays: { passport: 180 },
      openEndedHorizonDays: 120,
    })
    const second = await org.admin.api.patch(URL, {
      settings: { expiryWindowDays: { medical: null, us_visa: 0 }, defaultExpiryWindowDays: 45, expiryNotificationDays: [30, 7] },
    })
    expect(second.body).toEqual({
      id: org.id,
      name: 'Blue Line Shipping',
      domain: null,
      products: ['learn', 'crew'],
      settings: {
        defaultExpiryWindowDays: 45,
        expiryWindowDays: { passport: 180, us_visa: 0 },
        validityMarginDays: { passport: 180 },
        openEndedHorizonDays: 120,
        expiryNotificationDays: [30, 7],
      },
    })
    expect(await stored(org.id)).toEqual({
      name: 'Blue Line Shipping',
      settings: {
        defaultExpiryWindowDays: 45,
        expiryWindowDays: { passport: 180, us_visa: 0 },
        validityMarginDays: { passport: 180 },
        openEndedHorizonDays: 120,
        expiryNotificationDays: [30, 7],
      },
    })
    const third = await org.admin.api.patch(URL, {
      settings: { validityMarginDays: null, openEndedHorizonDays: null, defaultExpiryWindowDays: null },
    })
    expect(third.body.settings).toEqual({ ...DEFAULTS, expiryWindowDays: { passport: 180, us_visa: 0 }, expiryNotificationDays: [30, 7] })
    expect((await org.crew.api.get(URL)).body).toEqual(third.body)
    expect((await stored(other.id)).settings).toEqual({})
  })

  it('answers an empty PATCH with the organization unchanged', async () => {
    const before = (await org.admin.api.get(URL)).body
    const res = await org.admin.api.patch(URL, {})
    expect([res.status, res.body]).toEqual([200, before])
    expect((await org.admin.api.patch(URL, { settings: {} })).body).toEqual(before)
  })

  it('ignores settings keys it does not know, however deeply nested, and stores none of them', async () => {
    const before = (await org.admin.api.get(URL)).body
    const deep = `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`
    const body = `{"settings":{"unknownKey":${deep},"openEndedHorizonDays":${before.settings.openEndedHorizonDays}}}`
    const res = await org.admin.api.patch(URL, body, { 'content-type': 'application/json' })
    expect([res.status, res.body]).toEqual([200, before])
    expect((await stored(org.id)).settings).not.toHaveProperty('unknownKey')
  })

  it('is for admins only (403), and never changes another organization', async () => {
    for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
      const res = await user.api.patch(URL, { name: 'Hijacked' })
      expect([res.status, res.body]).toEqual([403, { detail: 'Not enough permissions' }])
    }
    await other.admin.api.patch(URL, { name: 'Other Line' })
    expect((await stored(org.id)).name).not.toBe('Other Line')
    expect((await stored(other.id)).name).toBe('Other Line')
  })

  it('refuses out-of-range values, unknown types and a bad name at each field, all at once, and changes nothing', async () => {
    const before = await stored(org.id)
    const res = await org.admin.api.patch(URL, {
      name: '',
      settings: {
        defaultExpiryWindowDays: 0,
        expiryWindowDays: { passport: 3651, visa: 30, medical: -1 },
        validityMarginDays: { seaman_book: 'long' },
        openEndedHorizonDays: 3651,
        expiryNotificationDays: [30, 30],
      },
    })
    expect(res.status).toBe(422)
    const locs = res.body.detail.map((d: { loc: unknown[]; type: string }) => [d.loc.join('.'), d.type])
    expect(locs).toEqual(
      expect.arrayContaining([
        ['body.name', 'string_too_short'],
        ['body.settings.defaultExpiryWindowDays', 'greater_than_equal'],
        ['body.settings.expiryWindowDays.passport', 'less_than_equal'],
        ['body.settings.expiryWindowDays.visa', 'extra_forbidden'],
        ['body.settings.expiryWindowDays.medical', 'greater_than_equal'],
        ['body.settings.validityMarginDays.seaman_book', 'int_parsing'],
        ['body.settings.openEndedHorizonDays', 'less_than_equal'],
        ['body.settings.expiryNotificationDays', 'value_error'],
      ]),
    )
    expect(locs).toHaveLength(8)
    expect(res.body.detail).toContainEqual({
      loc: ['body', 'settings', 'expiryWindowDays', 'visa'],
      msg: 'Extra inputs are not permitted',
      type: 'extra_forbidden',
    })
    expect(await stored(org.id)).toEqual(before)
  })

  it('bounds the notification thresholds (1–10 values, each 1–3650) and the name (≤ 300)', async () => {
    const cases: [unknown, string, string][] = [
      [{ settings: { expiryNotificationDays: [] } }, 'body.settings.expiryNotificationDays', 'too_short'],
      [{ settings: { expiryNotificationDays: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] } }, 'body.settings.expiryNotificationDays', 'too_long'],
      [{ settings: { expiryNotificationDays: [0] } }, 'body.settings.expiryNotificationDays.0', 'greater_than_equal'],
      [{ settings: { expiryNotificationDays: [3651] } }, 'body.settings.expiryNotificationDays.0', 'less_than_equal'],
      [{ settings: { expiryWindowDays: [] } }, 'body.settings.expiryWindowDays', 'model_type'],
      [{ name: 'x'.repeat(301) }, 'body.name', 'string_too_long'],
      [{ name: null }, 'body.name', 'string_type'],
    ]
    for (const [body, loc, type] of cases) {
      const res = await org.admin.api.patch(URL, body)
      expect([res.status, res.body.detail.map((d: { loc: unknown[]; type: string }) => [d.loc.join('.'), d.type])]).toEqual([
        422,
        [[loc, type]],
      ])
    }
    const edges = await org.admin.api.patch(URL, {
      name: 'x'.repeat(300),
      settings: {
        defaultExpiryWindowDays: 3650,
        expiryWindowDays: { passport: 0 },
        openEndedHorizonDays: 1,
        expiryNotificationDays: [3650, 1],
      },
    })
    expect(edges.status).toBe(200)
    expect(edges.body.settings).toMatchObject({ defaultExpiryWindowDays: 3650, openEndedHorizonDays: 1, expiryNotificationDays: [3650, 1] })
  })
})
