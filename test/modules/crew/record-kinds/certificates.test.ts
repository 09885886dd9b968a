import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg } from '../../../factories.js'
import { addDays, todayUtc } from '../../../../src/lib/dates.js'
import { insertTestUpload, UUID } from '../../../fixtures/crew-records.js'

const t = useTestApp()

const list = (userId: string) => `/api/v1/crew/users/${userId}/certificates`
const item = (id: string) => `/api/v1/crew/certificates/${id}`
const newOrg = () => createOrg(t.app, t.database.db)
const TYPES = [
  'stcw_basic_safety',
  'deck_certificate',
  'gmdss_endorsement',
  'oil_tanker_endorsement',
  'medical',
  'flag_certificate',
  'other',
]

describe('certificates', () => {
  it('answers 201 with every field, verification pending', async () => {
    const org = await newOrg()
    const uploadId = await insertTestUpload(t.database.db, org.id, org.crew.id, 'uploaded')
    const body = {
      certificateType: 'gmdss_endorsement',
      certificateNumber: 'GOC-1234',
      issuingAuthority: 'Maritime and Coastguard Agency',
      issueDate: '2022-02-01',
      expiryDate: addDays(todayUtc(), 30),
      uploadId,
      notes: null,
    }
    const res = await org.crew.api.post(list(org.crew.id), body)
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      ...body,
      uploadedByUserId: org.crew.id,
      status: 'expiring_soon',
      verification: { targetType: 'certificate', targetId: res.body.id, status: 'pending', rejectionReason: null, reviewedAt: null },
      source: 'manual',
      registrationId: null,
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
    })
    expect((await org.officeEmployee.api.get(item(res.body.id))).body).toEqual(res.body)
  })

  it('accepts the seven certificate types and nothing else', async () => {
    const org = await newOrg()
    for (const certificateType of TYPES) {
      expect((await org.crew.api.post(list(org.crew.id), { certificateType })).status).toBe(201)
    }
    const listed = (await org.crew.api.get(list(org.crew.id))).body.map((c: { certificateType: string }) => c.certificateType)
    expect(listed.sort()).toEqual([...TYPES].sort())
    const bad = await org.crew.api.post(list(org.crew.id), { certificateType: 'passport', certificateNumber: 'x'.repeat(65) })
    expect(bad.body.detail).toEqual([
      { loc: ['body', 'certificateType'], msg: expect.any(String), type: 'enum' },
      { loc: ['body', 'certificateNumber'], msg: expect.any(String), type: 'string_too_long' },
    ])
  })

  it('filters by expiry status and refuses an expiry before the issue date', async () => {
    const org = await newOrg()
    await org.crew.api.post(list(org.crew.id), {
      certificateType: 'medical',
      certificateNumber: 'old',
      expiryDate: addDays(todayUtc(), -1),
    })
    await org.crew.api.post(list(org.crew.id), {
      certificateType: 'medical',
      certificateNumber: 'new',
      expiryDate: addDays(todayUtc(), 91),
    })
    const expired = await org.crew.api.get(`${list(org.crew.id)}?expiry_status=expired`)
    expect(expired.body.map((c: { certificateNumber: string; status: string }) => [c.certificateNumber, c.status])).toEqual([
      ['old', 'expired'],
    ])
    const bad = await org.crew.api.post(list(org.crew.id), {
      certificateType: 'medical',
      issueDate: '2024-01-02',
      expiryDate: '2024-01-01',
    })
    expect(bad.body.detail).toEqual([{ loc: ['body', 'expiryDate'], msg: expect.any(String), type: 'value_error' }])
  })

  it('keeps certificateType immutable and lets PATCH change the rest', async () => {
    const org = await newOrg()
    const created = (await org.crew.api.post(list(org.crew.id), { certificateType: 'deck_certificate' })).body
    const refused = await org.crew.api.patch(item(created.id), { certificateType: 'other' })
    expect(refused.status).toBe(422)
    expect(refused.body.detail).toEqual([{ loc: ['body', 'certificateType'], msg: expect.any(String), type: 'frozen_field' }])
    const res = await org.crew.api.patch(item(created.id), { issuingAuthority: 'USCG', certificateNumber: 'D-9' })
    expect(res.body).toEqual({ ...created, issuingAuthority: 'USCG', certificateNumber: 'D-9', updatedAt: expect.any(String) })
    expect((await org.crew.api.delete(item(created.id))).status).toBe(204)
    expect((await org.crew.api.get(item(created.id))).status).toBe(404)
  })

  it('applies the same access rules as identity documents', async () => {
    const org = await newOrg()
    const other = await newOrg()
    const mate = await org.addUser('crew')
    const created = (await org.crew.api.post(list(org.crew.id), { certificateType: 'medical' })).body
    expect((await mate.api.get(item(created.id))).status).toBe(404)
    expect((await mate.api.get(list(org.crew.id))).status).toBe(404)
    expect((await org.officeEmployee.api.post(list(org.crew.id), { certificateType: 'medical' })).status).toBe(403)
    expect((await org.officeEmployee.api.delete(item(created.id))).status).toBe(403)
    expect((await other.admin.api.get(item(created.id))).status).toBe(404)
    expect((await other.admin.api.get(list(org.crew.id))).status).toBe(404)
    const learnOnly = await createOrg(t.app, t.database.db, { products: ['learn'] })
    expect((await learnOnly.admin.api.get(list(learnOnly.crew.id))).status).toBe(403)
  })
})
