import { describe, expect, it } from 'vitest'
import { buildTestApp, useTestApp } from '../../../app.js'
import { onOneUtcDay } from '../../../clock.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { addDays } from '../../../../src/lib/dates.js'
import { historyOf, insertTestUpload, UUID, verificationRow } from '../../../fixtures/crew-records.js'

const t = useTestApp()

const docs = (userId: string) => `/api/v1/crew/users/${userId}/identity-documents`
const doc = (id: string) => `/api/v1/crew/identity-documents/${id}`
const newOrg = (products?: ('learn' | 'crew')[]) => createOrg(t.app, t.database.db, { products })
const upload = (org: TestOrg, userId = org.crew.id, status?: 'pending' | 'uploaded' | 'ready' | 'rejected') =>
  insertTestUpload(t.database.db, org.id, userId, status)

describe('create an identity document (spec endpoint 1)', () => {
  it('answers 201 with every field, verification pending, uploadedByUserId the caller', async () => {
    const org = await newOrg()
    const uploadId = await upload(org)
    const res = await org.crew.api.post(docs(org.crew.id), {
      documentType: 'passport',
      documentNumber: 'P1234567',
      issuingCountry: 'gb',
      issueDate: '2020-01-15',
      expiryDate: '2035-01-14',
      uploadId,
      notes: 'renewed in London',
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      documentType: 'passport',
      documentNumber: 'P1234567',
      issuingCountry: 'GB',
      issueDate: '2020-01-15',
      expiryDate: '2035-01-14',
      uploadId,
      uploadedByUserId: org.crew.id,
      status: 'valid',
      verification: { targetType: 'identity_document', targetId: res.body.id, status: 'pending', rejectionReason: null, reviewedAt: null },
      notes: 'renewed in London',
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
    })
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt)
    expect((await org.crew.api.get(doc(res.body.id))).body).toEqual(res.body)
    expect(await historyOf(t.database.db, res.body.id)).toEqual([
      {
        target_type: 'identity_document',
        from_status: null,
        to_status: 'pending',
        action: 'create',
        actor_user_id: org.crew.id,
        reason: null,
      },
    ])
  })

  it('needs only documentType; the rest is null', async () => {
    const org = await newOrg()
    const res = await org.crew.api.post(docs(org.crew.id), { documentType: 'seaman_book' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      documentType: 'seaman_book',
      documentNumber: null,
      issuingCountry: null,
      issueDate: null,
      expiryDate: null,
      uploadId: null,
      uploadedByUserId: org.crew.id,
      status: 'valid',
      verification: { targetType: 'identity_document', targetId: res.body.id, status: 'pending', rejectionReason: null, reviewedAt: null },
      notes: null,
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
    })
    expect((await org.crew.api.get(doc(res.body.id))).body).toEqual(res.body)
  })

  it('records staff as the uploader when they add a document for a crew member', async () => {
    const org = await newOrg()
    const res = await org.officeAdmin.api.post(docs(org.crew.id), { documentType: 'us_visa', uploadId: await upload(org) })
    expect(res.status).toBe(201)
    expect(res.body.uploadedByUserId).toBe(org.officeAdmin.id)
    expect((await org.crew.api.get(docs(org.crew.id))).body.map((d: { id: string }) => d.id)).toEqual([res.body.id])
  })

  it('reports every schema problem at once', async () => {
    const org = await newOrg()
    const res = await org.crew.api.post(docs(org.crew.id), {
      documentType: 'driving_licence',
      documentNumber: 'x'.repeat(65),
      issuingCountry: 'XX',
      issueDate: '2020-13-01',
      uploadId: 'not-a-uuid',
      notes: 5,
    })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      { loc: ['body', 'documentType'], msg: expect.any(String), type: 'enum' },
      { loc: ['body', 'documentNumber'], msg: expect.any(String), type: 'string_too_long' },
      { loc: ['body', 'issuingCountry'], msg: expect.any(String), type: 'value_error' },
      { loc: ['body', 'issueDate'], msg: expect.any(String), type: 'date_parsing' },
      { loc: ['body', 'uploadId'], msg: expect.any(String), type: 'uuid_parsing' },
      { loc: ['body', 'notes'], msg: expect.any(String), type: 'string_type' },
    ])
    const missing = await org.crew.api.post(docs(org.crew.id), {})
    expect(missing.body).toEqual({ detail: [{ loc: ['body', 'documentType'], msg: 'Field required', type: 'missing' }] })
  })

  it.each([
    ['GB', 'GB'],
    ['gbr', 'GBR'],
    ['Us', 'US'],
  ])('accepts the ISO 3166-1 code %s, stored as %s', async (sent, stored) => {
    const org = await newOrg()
    const res = await org.crew.api.post(docs(org.crew.id), { documentType: 'passport', issuingCountry: sent })
    expect(res.status).toBe(201)
    expect(res.body.issuingCountry).toBe(stored)
  })

  // XK/XKK (Kosovo) are user-assigned codes, not part of ISO 3166-1.
  it.each(['XX', '826', 'GBRR', 'G', '', 'XK', 'xkk'])('refuses %j as a country', async (country) => {
    const org = await newOrg()
    const res = await org.crew.api.post(docs(org.crew.id), { documentType: 'passport', issuingCountry: country })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([{ loc: ['body', 'issuingCountry'], msg: expect.any(String), type: 'value_error' }])
  })

  it('refuses an expiry date before the issue date and a bad upload in one 422, writing nothing', async () => {
    const org = await newOrg()
    const res = await org.crew.api.post(docs(org.crew.id), {
      documentType: 'passport',
      issueDate: '2020-01-02',
      expiryDate: '2020-01-01',
      uploadId: '0190a0a0-0000-7000-8000-000000000000',
    })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      { loc: ['body', 'expiryDate'], msg: expect.any(String), type: 'value_error' },
      { loc: ['body', 'uploadId'], msg: expect.any(String), type: 'value_error' },
    ])
    expect((await org.crew.api.get(docs(org.crew.id))).body).toEqual([])
    const rows = await t.database.db.selectFrom('verifications').select('target_id').where('user_id', '=', org.crew.id).execute()
    expect(rows).toEqual([])
    const sameDay = await org.crew.api.post(docs(org.crew.id), {
      documentType: 'passport',
      issueDate: '2020-01-02',
      expiryDate: '2020-01-02',
    })
    expect(sameDay.status).toBe(201)
  })
})

describe('uploadId rule', () => {
  it.each([
    ['uploaded', 201],
    ['ready', 201],
    ['pending', 422],
    ['rejected', 422],
  ] as const)('an upload in state %s → %i', async (status, code) => {
    const org = await newOrg()
    const res = await org.crew.api.post(docs(org.crew.id), { documentType: 'passport', uploadId: await upload(org, org.crew.id, status) })
    expect(res.status).toBe(code)
    if (code === 422) expect(res.body.detail).toEqual([{ loc: ['body', 'uploadId'], msg: expect.any(String), type: 'value_error' }])
  })

  it("refuses another organization's upload, and for crew another user's upload; staff may attach a crew member's", async () => {
    const org = await newOrg()
    const other = await newOrg()
    const foreign = await org.admin.api.post(docs(org.crew.id), { documentType: 'passport', uploadId: await upload(other) })
    expect(foreign.status).toBe(422)
    expect(foreign.body.detail[0].loc).toEqual(['body', 'uploadId'])
    const staffUpload = await upload(org, org.officeAdmin.id)
    const crewUsesStaffs = await org.crew.api.post(docs(org.crew.id), { documentType: 'passport', uploadId: staffUpload })
    expect(crewUsesStaffs.status).toBe(422)
    const staffUsesCrews = await org.officeAdmin.api.post(docs(org.crew.id), { documentType: 'passport', uploadId: await upload(org) })
    expect(staffUsesCrews.status).toBe(201)
  })
})

describe('expiry status', () => {
  const casesOn = (today: string) =>
    [
      ['no expiry date', null, 'valid'],
      ['yesterday', addDays(today, -1), 'expired'],
      ['today', today, 'expiring_soon'],
      ['today + 90', addDays(today, 90), 'expiring_soon'],
      ['today + 91', addDays(today, 91), 'valid'],
    ] as const

  it('is computed from the expiry date against today (UTC) with 90 days of warning, and filters lists', () =>
    onOneUtcDay(async (today) => {
      const cases = casesOn(today)
      const org = await newOrg()
      const ids: Record<string, string> = {}
      for (const [name, expiryDate] of cases) {
        const res = await org.crew.api.post(docs(org.crew.id), { documentType: 'passport', documentNumber: name, expiryDate })
        ids[name] = res.body.id
      }
      for (const [name, , status] of cases) {
        const res = await org.crew.api.get(doc(ids[name]))
        expect([name, res.body.status]).toEqual([name, status])
      }
      const filtered = async (status: string) =>
        ((await org.officeEmployee.api.get(`${docs(org.crew.id)}?expiry_status=${status}`)).body as { documentNumber: string }[])
          .map((d) => d.documentNumber)
          .sort()
      expect(await filtered('expired')).toEqual(['yesterday'])
      expect(await filtered('expiring_soon')).toEqual(['today', 'today + 90'])
      expect(await filtered('valid')).toEqual(['no expiry date', 'today + 91'])
      const all = await org.crew.api.get(docs(org.crew.id))
      expect(all.body.map((d: { documentNumber: string }) => d.documentNumber)).toEqual(cases.map(([name]) => name).reverse())
      const bad = await org.crew.api.get(`${docs(org.crew.id)}?expiry_status=unknown`)
      expect(bad.status).toBe(422)
      expect(bad.body.detail).toEqual([{ loc: ['query', 'expiry_status'], msg: expect.any(String), type: 'enum' }])
    }))

  it('takes its warning period from EXPIRING_SOON_DAYS', async () => {
    const short = await buildTestApp({ EXPIRING_SOON_DAYS: '30' })
    try {
      const org = await createOrg(short.app, short.database.db)
      await onOneUtcDay(async (today) => {
        const create = async (days: number) =>
          (await org.crew.api.post(docs(org.crew.id), { documentType: 'passport', expiryDate: addDays(today, days) })).body.status
        expect(await create(30)).toBe('expiring_soon')
        expect(await create(31)).toBe('valid')
      })
    } finally {
      await short.app.close()
    }
  })
})

describe('read, update and delete', () => {
  it('PATCH changes only what is sent, null clears, {} changes nothing', async () => {
    const org = await newOrg()
    const created = (await org.crew.api.post(docs(org.crew.id), { documentType: 'passport', documentNumber: 'A1', issuingCountry: 'FR' }))
      .body
    const res = await org.crew.api.patch(doc(created.id), { documentNumber: null, issuingCountry: 'deu', expiryDate: '2040-01-01' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      ...created,
      documentNumber: null,
      issuingCountry: 'DEU',
      expiryDate: '2040-01-01',
      updatedAt: expect.any(String),
    })
    expect(res.body.updatedAt > created.updatedAt).toBe(true)
    const empty = await org.crew.api.patch(doc(created.id), {})
    expect(empty.status).toBe(200)
    expect(empty.body).toEqual(res.body)
    expect((await org.crew.api.get(doc(created.id))).body).toEqual(res.body)
  })

  it('refuses a documentType change (422), along with other problems, and changes nothing', async () => {
    const org = await newOrg()
    const created = (await org.crew.api.post(docs(org.crew.id), { documentType: 'passport', issueDate: '2020-01-01' })).body
    const res = await org.crew.api.patch(doc(created.id), { documentType: 'passport', expiryDate: '2019-01-01' })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      { loc: ['body', 'documentType'], msg: expect.any(String), type: 'frozen_field' },
      { loc: ['body', 'expiryDate'], msg: expect.any(String), type: 'value_error' },
    ])
    expect((await org.crew.api.get(doc(created.id))).body).toEqual(created)
  })

  it('names the date sent in the PATCH that breaks the order, the later one when both are sent', async () => {
    const org = await newOrg()
    const created = (
      await org.crew.api.post(docs(org.crew.id), { documentType: 'passport', issueDate: '2020-01-01', expiryDate: '2030-01-01' })
    ).body
    const locOf = async (body: object) => (await org.crew.api.patch(doc(created.id), body)).body.detail?.[0].loc
    expect(await locOf({ expiryDate: '2019-12-31' })).toEqual(['body', 'expiryDate'])
    expect(await locOf({ issueDate: '2030-01-02' })).toEqual(['body', 'issueDate'])
    expect(await locOf({ issueDate: '2031-01-01', expiryDate: '2030-06-01' })).toEqual(['body', 'expiryDate'])
    expect((await org.crew.api.patch(doc(created.id), { issueDate: null, expiryDate: '2010-01-01' })).status).toBe(200)
  })

  it('PATCH checks a new uploadId; re-sending the current one (any case) is not checked again', async () => {
    const org = await newOrg()
    const staffUpload = await upload(org, org.admin.id)
    const created = (await org.admin.api.post(docs(org.crew.id), { documentType: 'passport', uploadId: staffUpload })).body
    const same = await org.crew.api.patch(doc(created.id), { uploadId: staffUpload.toUpperCase() })
    expect(same.status).toBe(200)
    expect(same.body.uploadId).toBe(staffUpload)
    const bad = await org.crew.api.patch(doc(created.id), { uploadId: await upload(org, org.crew.id, 'pending') })
    expect(bad.status).toBe(422)
    expect(bad.body.detail).toEqual([{ loc: ['body', 'uploadId'], msg: expect.any(String), type: 'value_error' }])
  })

  it('DELETE answers 204, removes the document and its verification, keeps its history', async () => {
    const org = await newOrg()
    const created = (await org.crew.api.post(docs(org.crew.id), { documentType: 'national_id' })).body
    const res = await org.crew.api.delete(doc(created.id))
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect((await org.crew.api.get(doc(created.id))).status).toBe(404)
    expect((await org.crew.api.get(docs(org.crew.id))).body).toEqual([])
    expect(await verificationRow(t.database.db, created.id)).toBeUndefined()
    expect(await historyOf(t.database.db, created.id)).toHaveLength(1)
    expect((await org.crew.api.delete(doc(created.id))).status).toBe(404)
  })

  it('answers 50 concurrent creations for one user with 201 each, all listed', async () => {
    const org = await newOrg()
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => org.crew.api.post(docs(org.crew.id), { documentType: 'passport', documentNumber: `N${i}` })),
    )
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201))
    const listed = (await org.crew.api.get(docs(org.crew.id))).body as { id: string; verification: { status: string } }[]
    expect(listed.map((d) => d.id).sort()).toEqual(results.map((r) => r.body.id).sort())
    expect(new Set(listed.map((d) => d.verification.status))).toEqual(new Set(['pending']))
  })
})

describe('access', () => {
  it("gives crew their own documents only: someone else's is a 404", async () => {
    const org = await newOrg()
    const mate = await org.addUser('crew')
    const theirs = (await mate.api.post(docs(mate.id), { documentType: 'passport' })).body
    expect((await org.crew.api.get(docs(mate.id))).status).toBe(404)
    expect((await org.crew.api.post(docs(mate.id), { documentType: 'passport' })).status).toBe(404)
    expect((await org.crew.api.get(doc(theirs.id))).status).toBe(404)
    expect((await org.crew.api.patch(doc(theirs.id), { notes: 'x' })).status).toBe(404)
    expect((await org.crew.api.delete(doc(theirs.id))).status).toBe(404)
    expect((await org.crew.api.get(doc(theirs.id))).body).toEqual({ detail: 'Identity document not found' })
    expect((await mate.api.get(doc(theirs.id))).body).toEqual(theirs)
  })

  it('lets crew name themselves with an upper-case id', async () => {
    const org = await newOrg()
    const self = org.crew.id.toUpperCase()
    const created = await org.crew.api.post(docs(self), { documentType: 'passport' })
    expect(created.status).toBe(201)
    expect((await org.crew.api.get(docs(self))).body).toEqual([created.body])
    expect((await org.crew.api.get(docs(org.crew.id))).body).toEqual([created.body])
  })

  it('lets office employees read but not write (403), and leaves the document as it was', async () => {
    const org = await newOrg()
    const created = (await org.crew.api.post(docs(org.crew.id), { documentType: 'passport' })).body
    const api = org.officeEmployee.api
    expect((await api.get(docs(org.crew.id))).body).toEqual([created])
    expect((await api.get(doc(created.id))).body).toEqual(created)
    const forbidden = { detail: 'Not enough permissions' }
    expect(await api.post(docs(org.crew.id), { documentType: 'passport' })).toMatchObject({ status: 403, body: forbidden })
    expect(await api.patch(doc(created.id), { notes: 'x' })).toMatchObject({ status: 403, body: forbidden })
    expect(await api.delete(doc(created.id))).toMatchObject({ status: 403, body: forbidden })
    expect((await org.crew.api.get(docs(org.crew.id))).body).toEqual([created])
    // The role check comes first: a record the role could never write is a 403, not a 404.
    const other = await newOrg()
    const foreign = (await other.crew.api.post(docs(other.crew.id), { documentType: 'passport' })).body
    expect((await api.patch(doc(foreign.id), { notes: 'x' })).status).toBe(403)
    expect((await api.post(docs(other.crew.id), { documentType: 'passport' })).status).toBe(403)
    for (const staff of [org.admin, org.officeAdmin]) {
      expect((await staff.api.patch(doc(created.id), { notes: staff.role })).status).toBe(200)
    }
    expect((await org.admin.api.post(docs(org.admin.id), { documentType: 'passport' })).status).toBe(201)
  })

  it('hides other organizations: their documents and their users are 404', async () => {
    const org = await newOrg()
    const other = await newOrg()
    const created = (await org.crew.api.post(docs(org.crew.id), { documentType: 'passport' })).body
    const api = other.admin.api
    expect((await api.get(doc(created.id))).status).toBe(404)
    expect((await api.patch(doc(created.id), { notes: 'x' })).status).toBe(404)
    expect((await api.delete(doc(created.id))).status).toBe(404)
    expect((await api.get(docs(org.crew.id))).status).toBe(404)
    expect((await api.post(docs(org.crew.id), { documentType: 'passport' })).body).toEqual({ detail: 'User not found' })
    expect((await org.admin.api.get(docs('0190a0a0-0000-7000-8000-000000000000'))).status).toBe(404)
    expect((await org.crew.api.get(doc(created.id))).body).toEqual(created)
  })

  it('needs the crew product (403) and a well-formed id (422)', async () => {
    const learnOnly = await newOrg(['learn'])
    expect((await learnOnly.admin.api.get(docs(learnOnly.crew.id))).status).toBe(403)
    expect((await learnOnly.crew.api.post(docs(learnOnly.crew.id), { documentType: 'passport' })).status).toBe(403)
    const org = await newOrg()
    const res = await org.admin.api.get(doc('nope'))
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([{ loc: ['path', 'document_id'], msg: expect.any(String), type: 'uuid_parsing' }])
  })
})
