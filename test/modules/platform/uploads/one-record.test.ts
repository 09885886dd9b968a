import { describe, expect, it } from 'vitest'
import { PNG_3X2, uploadFile } from '../../../fixtures/uploads.js'
import { useTestApp } from '../../../app.js'
import { useOrg } from '../../../factories.js'

// DECISIONS §5 item 6: an upload backs at most one live crew record, of any type.

const t = useTestApp()
const org = useOrg(t)
const TAKEN = { detail: [{ loc: ['body', 'uploadId'], msg: 'Upload already backs another record', type: 'value_error' }] }

const path = (kind: 'identity-documents' | 'certificates') => `/api/v1/crew/users/${org.crew.id}/${kind}`
const passport = (uploadId: string) => ({ documentType: 'passport', documentNumber: 'P1', uploadId })
const idCard = (uploadId: string) => ({ documentType: 'national_id', documentNumber: 'N1', uploadId })
const medical = (uploadId: string) => ({ certificateType: 'medical', certificateNumber: 'M1', uploadId })

async function scan(): Promise<string> {
  const { uploadId, finalized } = await uploadFile(t.app, org.crew.api, PNG_3X2, 'image/png', 'scan.png')
  expect(finalized.status).toBe(200)
  return uploadId
}

/** The records that reference the upload, of both tables. */
async function holders(uploadId: string): Promise<string[]> {
  const { db } = t.database
  const rows = await db
    .selectFrom('identity_documents')
    .select('id')
    .where('upload_id', '=', uploadId)
    .unionAll(db.selectFrom('certificates').select('id').where('upload_id', '=', uploadId))
    .execute()
  return rows.map((row) => row.id)
}

describe('one upload, one record', () => {
  it('refuses a second record of any type naming the upload (422 at uploadId), writing nothing', async () => {
    const uploadId = await scan()
    const first = await org.crew.api.post(path('identity-documents'), passport(uploadId))
    expect(first.status).toBe(201)
    for (const [kind, body] of [
      ['identity-documents', idCard(uploadId)],
      ['certificates', medical(uploadId)],
    ] as const) {
      const res = await org.admin.api.post(path(kind), body)
      expect(res.status).toBe(422)
      expect(res.body).toEqual(TAKEN)
    }
    expect(await holders(uploadId)).toEqual([first.body.id])
  })

  it('refuses a PATCH that points another record at it; the record keeps its own upload', async () => {
    const [taken, own] = [await scan(), await scan()]
    const holder = await org.crew.api.post(path('certificates'), medical(taken))
    const other = await org.crew.api.post(path('identity-documents'), passport(own))
    const res = await org.crew.api.patch(`/api/v1/crew/identity-documents/${other.body.id}`, { uploadId: taken })
    expect(res.status).toBe(422)
    expect(res.body).toEqual(TAKEN)
    expect(await holders(taken)).toEqual([holder.body.id])
    expect(await holders(own)).toEqual([other.body.id])
    // Naming its own upload again is no second reference.
    expect((await org.crew.api.patch(`/api/v1/crew/identity-documents/${other.body.id}`, { uploadId: own, notes: 'x' })).status).toBe(200)
  })

  it('is freed by deleting the record, or by moving it to another upload', async () => {
    const [first, second] = [await scan(), await scan()]
    const deleted = await org.crew.api.post(path('identity-documents'), passport(first))
    expect((await org.crew.api.delete(`/api/v1/crew/identity-documents/${deleted.body.id}`)).status).toBe(204)
    const reused = await org.crew.api.post(path('certificates'), medical(first))
    expect(reused.status).toBe(201)
    expect((await org.crew.api.patch(`/api/v1/crew/certificates/${reused.body.id}`, { uploadId: second })).status).toBe(200)
    const after = await org.crew.api.post(path('identity-documents'), idCard(first))
    expect(after.status).toBe(201)
    expect(await holders(first)).toEqual([after.body.id])
    const cleared = await org.crew.api.patch(`/api/v1/crew/certificates/${reused.body.id}`, { uploadId: null })
    expect(cleared.status).toBe(200)
    expect((await org.crew.api.post(path('identity-documents'), passport(second))).status).toBe(201)
  })

  it('lets exactly one of two concurrent creates naming one upload win', async () => {
    for (let round = 0; round < 3; round++) {
      const uploadId = await scan()
      const answers = await Promise.all([
        org.crew.api.post(path('identity-documents'), passport(uploadId)),
        org.admin.api.post(path('certificates'), medical(uploadId)),
      ])
      expect(answers.map((res) => res.status).sort()).toEqual([201, 422])
      expect(answers.find((res) => res.status === 422)!.body).toEqual(TAKEN)
      expect(await holders(uploadId)).toEqual([answers.find((res) => res.status === 201)!.body.id])
    }
  })
})
