import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { onOneUtcDay } from '../../../clock.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { addDays } from '../../../../src/lib/dates.js'

// DECISIONS §10 on the per-user lists and items of §3: the organization's per-type windows, as_of
// and expires_before.

const t = useTestApp()

const SETTINGS = '/api/v1/shared/organization'
const docs = (userId: string) => `/api/v1/crew/users/${userId}/identity-documents`
const doc = (id: string) => `/api/v1/crew/identity-documents/${id}`
const certs = (userId: string) => `/api/v1/crew/users/${userId}/certificates`
const cert = (id: string) => `/api/v1/crew/certificates/${id}`
const newOrg = () => createOrg(t.app, t.database.db)

interface Listed {
  id: string
  documentNumber?: string | null
  certificateNumber?: string | null
  status: string
}

/** Creates the crew member's documents (number, type, expiry date); returns their ids by number. */
async function createDocs(org: TestOrg, rows: [string, string, string | null][]) {
  const ids: Record<string, string> = {}
  for (const [documentNumber, documentType, expiryDate] of rows) {
    const res = await org.crew.api.post(docs(org.crew.id), { documentType, documentNumber, expiryDate })
    expect(res.status).toBe(201)
    ids[documentNumber] = res.body.id
  }
  return ids
}

/** A list's [number, status] pairs, oldest first. */
async function listed(org: TestOrg, path: string) {
  const res = await org.officeEmployee.api.get(path)
  expect(res.status).toBe(200)
  return (res.body as Listed[]).map((row) => [row.documentNumber ?? row.certificateNumber, row.status]).reverse()
}

const setSettings = async (org: TestOrg, settings: Record<string, unknown>) => {
  const res = await org.admin.api.patch(SETTINGS, { settings })
  expect(res.status).toBe(200)
}

describe("the organization's expiry windows", () => {
  it('apply at once to a type that has one (list, item, filter) while other types keep the default', () =>
    onOneUtcDay(async (today) => {
      const org = await newOrg()
      const ids = await createDocs(org, [
        ['passport', 'passport', addDays(today, 120)],
        ['visa', 'us_visa', addDays(today, 120)],
      ])
      expect(await listed(org, docs(org.crew.id))).toEqual([
        ['passport', 'valid'],
        ['visa', 'valid'],
      ])

      await setSettings(org, { expiryWindowDays: { passport: 180 } })
      expect(await listed(org, docs(org.crew.id))).toEqual([
        ['passport', 'expiring_soon'],
        ['visa', 'valid'],
      ])
      expect((await org.crew.api.get(doc(ids.passport))).body.status).toBe('expiring_soon')
      expect((await org.crew.api.get(doc(ids.visa))).body.status).toBe('valid')
      expect(await listed(org, `${docs(org.crew.id)}?expiry_status=expiring_soon`)).toEqual([['passport', 'expiring_soon']])
      expect(await listed(org, `${docs(org.crew.id)}?expiry_status=valid`)).toEqual([['visa', 'valid']])

      // The organization's default window applies to the types without their own.
      await setSettings(org, { defaultExpiryWindowDays: 120 })
      expect(await listed(org, `${docs(org.crew.id)}?expiry_status=expiring_soon`)).toEqual([
        ['passport', 'expiring_soon'],
        ['visa', 'expiring_soon'],
      ])
      // Removing the passport's entry puts it back on the default window.
      await setSettings(org, { defaultExpiryWindowDays: 119, expiryWindowDays: { passport: null } })
      expect(await listed(org, docs(org.crew.id))).toEqual([
        ['passport', 'valid'],
        ['visa', 'valid'],
      ])
    }))

  it("are the organization's own: another organization's windows change nothing", () =>
    onOneUtcDay(async (today) => {
      const [org, other] = await Promise.all([newOrg(), newOrg()])
      await createDocs(org, [['passport', 'passport', addDays(today, 120)]])
      await setSettings(other, { expiryWindowDays: { passport: 180 }, defaultExpiryWindowDays: 3650 })
      expect(await listed(org, docs(org.crew.id))).toEqual([['passport', 'valid']])
    }))

  it('end on as_of + window inclusive, for documents and certificates alike', async () => {
    const org = await newOrg()
    await setSettings(org, { expiryWindowDays: { passport: 180, medical: 0 } })
    const asOf = '2031-03-10'
    await createDocs(org, [
      ['day before', 'passport', addDays(asOf, -1)],
      ['as of', 'passport', asOf],
      ['edge', 'passport', addDays(asOf, 180)],
      ['past edge', 'passport', addDays(asOf, 181)],
      ['visa edge', 'us_visa', addDays(asOf, 90)],
      ['visa past edge', 'us_visa', addDays(asOf, 91)],
    ])
    expect(await listed(org, `${docs(org.crew.id)}?as_of=${asOf}`)).toEqual([
      ['day before', 'expired'],
      ['as of', 'expiring_soon'],
      ['edge', 'expiring_soon'],
      ['past edge', 'valid'],
      ['visa edge', 'expiring_soon'],
      ['visa past edge', 'valid'],
    ])
    for (const [certificateNumber, expiryDate] of [
      ['medical today', asOf],
      ['medical tomorrow', addDays(asOf, 1)],
    ]) {
      const res = await org.crew.api.post(certs(org.crew.id), { certificateType: 'medical', certificateNumber, expiryDate })
      expect(res.status).toBe(201)
    }
    expect(await listed(org, `${certs(org.crew.id)}?as_of=${asOf}`)).toEqual([
      ['medical today', 'expiring_soon'],
      ['medical tomorrow', 'valid'],
    ])
  })

  it('apply to certificate items and filters at once', () =>
    onOneUtcDay(async (today) => {
      const org = await newOrg()
      const created = await org.crew.api.post(certs(org.crew.id), {
        certificateType: 'stcw_basic_safety',
        certificateNumber: 'B1',
        expiryDate: addDays(today, 60),
      })
      expect(created.body.status).toBe('expiring_soon')
      await setSettings(org, { expiryWindowDays: { stcw_basic_safety: 30 } })
      expect((await org.crew.api.get(cert(created.body.id))).body.status).toBe('valid')
      expect(await listed(org, `${certs(org.crew.id)}?expiry_status=valid`)).toEqual([['B1', 'valid']])
      expect(await listed(org, `${certs(org.crew.id)}?expiry_status=expiring_soon`)).toEqual([])
    }))
})

describe('as_of on the per-user lists', () => {
  it('judges the status, and the filter, on that date, in the past or the future', async () => {
    const org = await newOrg()
    await createDocs(org, [
      ['P', 'passport', '2030-06-01'],
      ['none', 'passport', null],
    ])
    const on = (asOf: string, filter = '') => listed(org, `${docs(org.crew.id)}?as_of=${asOf}${filter}`)
    expect(await on('2029-01-01')).toEqual([
      ['P', 'valid'],
      ['none', 'valid'],
    ])
    expect(await on('2030-03-03')).toEqual([
      ['P', 'expiring_soon'],
      ['none', 'valid'],
    ])
    expect(await on('2030-06-02')).toEqual([
      ['P', 'expired'],
      ['none', 'valid'],
    ])
    expect(await on('2030-06-02', '&expiry_status=expired')).toEqual([['P', 'expired']])
    expect(await on('2030-03-03', '&expiry_status=expired')).toEqual([])
  })

  it('defaults to today (UTC)', () =>
    onOneUtcDay(async (today) => {
      const org = await newOrg()
      await createDocs(org, [
        ['expired', 'passport', addDays(today, -1)],
        ['soon', 'passport', addDays(today, 90)],
        ['valid', 'passport', addDays(today, 91)],
      ])
      const implicit = await listed(org, docs(org.crew.id))
      expect(implicit).toEqual([
        ['expired', 'expired'],
        ['soon', 'expiring_soon'],
        ['valid', 'valid'],
      ])
      expect(await listed(org, `${docs(org.crew.id)}?as_of=${today}`)).toEqual(implicit)
    }))
})

describe('expires_before on the per-user lists', () => {
  it('keeps only records that expire strictly before the date, never those without an expiry date', async () => {
    const org = await newOrg()
    await createDocs(org, [
      ['first', 'passport', '2030-01-01'],
      ['on the day', 'us_visa', '2030-01-02'],
      ['none', 'passport', null],
    ])
    expect(await listed(org, `${docs(org.crew.id)}?expires_before=2030-01-02`)).toEqual([['first', 'valid']])
    expect(await listed(org, `${docs(org.crew.id)}?expires_before=2030-01-03`)).toEqual([
      ['first', 'valid'],
      ['on the day', 'valid'],
    ])
    expect(await listed(org, `${docs(org.crew.id)}?expires_before=2030-01-03&as_of=2030-01-02&expiry_status=expired`)).toEqual([
      ['first', 'expired'],
    ])
    for (const [certificateNumber, expiryDate] of [
      ['C1', '2030-01-01'],
      ['C2', '2030-01-02'],
      ['C3', null],
    ]) {
      await org.crew.api.post(certs(org.crew.id), { certificateType: 'medical', certificateNumber, expiryDate })
    }
    expect(await listed(org, `${certs(org.crew.id)}?expires_before=2030-01-02&as_of=2029-12-01`)).toEqual([['C1', 'expiring_soon']])
  })
})

describe('bad dates', () => {
  it.each([docs, certs])('are a 422 date_parsing at the parameter (%#)', async (list) => {
    const org = await newOrg()
    for (const [query, loc] of [
      ['as_of=2030-02-30', 'as_of'],
      ['as_of=tomorrow', 'as_of'],
      ['expires_before=2030-1-01', 'expires_before'],
      ['expires_before=', 'expires_before'],
    ]) {
      const res = await org.crew.api.get(`${list(org.crew.id)}?${query}`)
      expect([query, res.status]).toEqual([query, 422])
      expect(res.body).toEqual({
        detail: [{ loc: ['query', loc], msg: 'Input should be a valid date in the format YYYY-MM-DD', type: 'date_parsing' }],
      })
    }
  })
})
