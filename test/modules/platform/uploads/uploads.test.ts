import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { referenceableUpload } from '../../../../src/modules/platform/uploads/uploads.queries.js'
import {
  download,
  JPEG_12X7,
  jpegWithMetadata,
  openStore,
  PNG_3X2,
  pdfWithPages,
  postForm,
  STORES,
  type StoreUnderTest,
  startUpload,
  uploadFile,
} from '../../../fixtures/uploads.js'

const INTENT = '/api/v1/shared/uploads/intent'
const uploadUrl = (id: string) => `/api/v1/shared/uploads/${id}`

// The same suite on both stores: every answer of the API is the same; only where the form and the
// download link point differs.
describe.each(STORES)('uploads on %s storage', (storeName) => {
  let store: StoreUnderTest
  let t: TestApp
  let org: TestOrg
  beforeAll(async () => {
    store = await openStore(storeName)
    t = store.t
    org = await createOrg(t.app, t.database.db)
  })
  afterAll(() => store.close())

  /** Where the presigned POST and the download link of each store point. */
  const target = () =>
    store.s3
      ? {
          postUrl: `${store.s3.endpoint}/${store.s3.bucket}`,
          fieldNames: ['Content-Type', 'bucket', 'X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'key', 'Policy', 'X-Amz-Signature'],
          downloadUrl: (id: string) => `${store.s3!.endpoint}/${store.s3!.bucket}/${org.id}/${id}/`,
        }
      : {
          postUrl: `${t.config.publicUrl}/api/v1/shared/uploads/target`,
          fieldNames: ['key', 'Content-Type', 'policy', 'x-seaworthy-signature'],
          downloadUrl: () => `${t.config.publicUrl}/api/v1/shared/uploads/object?`,
        }

  describe('upload flow', () => {
    it('takes a PDF from intent to a ready upload whose link downloads the bytes', async () => {
      const pdf = await pdfWithPages(2)
      const intent = await org.crew.api.post(INTENT, {
        kind: 'identity_document',
        mime: 'application/pdf',
        size: pdf.length,
        filename: 'passport.pdf',
      })
      expect(intent.status).toBe(201)
      const { uploadId, presignedPost } = intent.body
      expect(presignedPost.url).toBe(target().postUrl)
      expect(Object.keys(presignedPost.fields)).toEqual(target().fieldNames)
      expect(presignedPost.fields.key).toBe(`${org.id}/${uploadId}/incoming`)
      expect(presignedPost.fields['Content-Type']).toBe('application/pdf')

      const pending = {
        id: uploadId,
        status: 'pending',
        kind: 'identity_document',
        originalFilename: 'passport.pdf',
        sizeBytes: pdf.length,
        createdAt: expect.any(String),
        downloadUrl: null,
        derivatives: [],
        width: null,
        height: null,
        pageCount: null,
        threatName: null,
      }
      expect((await org.crew.api.get(uploadUrl(uploadId))).body).toEqual(pending)

      expect((await postForm(t.app, presignedPost.url, presignedPost.fields, pdf)).status).toBe(204)
      const finalized = await org.crew.api.post(`${uploadUrl(uploadId)}/finalize`)
      expect(finalized.status).toBe(200)
      const ready = {
        ...pending,
        status: 'ready',
        pageCount: 2,
        downloadUrl: expect.stringContaining(target().downloadUrl(uploadId)),
      }
      expect(finalized.body).toEqual(ready)

      const read = await org.crew.api.get(uploadUrl(uploadId))
      expect(read.body).toEqual(ready)
      const file = await download(t.app, read.body.downloadUrl)
      expect({ ...file, bytes: undefined }).toEqual({
        status: 200,
        type: 'application/pdf',
        disposition: `attachment; filename="passport.pdf"; filename*=UTF-8''passport.pdf`,
        bytes: undefined,
      })
      expect(file.bytes.equals(pdf)).toBe(true)

      const row = await t.database.db
        .selectFrom('uploads')
        .select(['sha256', 'size_bytes'])
        .where('id', '=', uploadId)
        .executeTakeFirstOrThrow()
      expect(row).toEqual({ sha256: createHash('sha256').update(pdf).digest('hex'), size_bytes: pdf.length })
    })

    it('measures PNG and JPEG images', async () => {
      const png = await uploadFile(t.app, org.officeEmployee.api, PNG_3X2, 'image/png')
      expect(png.finalized.body).toMatchObject({ status: 'ready', width: 3, height: 2, pageCount: null, threatName: null })
      const jpeg = await uploadFile(t.app, org.admin.api, JPEG_12X7, 'image/jpeg')
      expect(jpeg.finalized.body).toMatchObject({ status: 'ready', width: 12, height: 7, pageCount: null, threatName: null })
    })

    it('measures an image from its first 512 KiB: a size header past them is MalformedContent', async () => {
      const within = await uploadFile(t.app, org.crew.api, jpegWithMetadata(7), 'image/jpeg')
      expect(within.finalized.body).toMatchObject({ status: 'ready', width: 12, height: 7 })
      const beyond = await uploadFile(t.app, org.crew.api, jpegWithMetadata(9), 'image/jpeg')
      expect(beyond.finalized.body).toMatchObject({ status: 'rejected', threatName: 'MalformedContent', width: null, height: null })
    })

    it('accepts content that is not its declared type, then rejects it at finalize', async () => {
      const { uploadId, finalized } = await uploadFile(t.app, org.crew.api, PNG_3X2, 'application/pdf')
      expect(finalized.status).toBe(200)
      expect(finalized.body).toMatchObject({ status: 'rejected', threatName: 'ContentTypeMismatch', downloadUrl: null, pageCount: null })
      expect((await org.crew.api.get(uploadUrl(uploadId))).body).toMatchObject({ status: 'rejected', threatName: 'ContentTypeMismatch' })
      expect(await referenceableUpload(t.database.db, org.id, { id: uploadId }).executeTakeFirst()).toBeUndefined()
    })

    it('rejects a file of the declared type that cannot be read', async () => {
      const broken = Buffer.from('%PDF-1.7\nthis is not a PDF body\n')
      const { finalized } = await uploadFile(t.app, org.crew.api, broken, 'application/pdf')
      expect(finalized.body).toMatchObject({ status: 'rejected', threatName: 'MalformedContent' })
    })

    it('answers a replayed finalize with the same result, without processing again', async () => {
      const { uploadId, finalized } = await uploadFile(t.app, org.crew.api, PNG_3X2, 'image/png')
      const before = await t.database.db
        .selectFrom('uploads')
        .select(['storage_key', 'updated_at'])
        .where('id', '=', uploadId)
        .executeTakeFirstOrThrow()
      const again = await org.crew.api.post(`${uploadUrl(uploadId)}/finalize`)
      expect(again.status).toBe(200)
      expect({ ...again.body, downloadUrl: null }).toEqual({ ...finalized.body, downloadUrl: null })
      const after = await t.database.db
        .selectFrom('uploads')
        .select(['storage_key', 'updated_at'])
        .where('id', '=', uploadId)
        .executeTakeFirstOrThrow()
      expect(after).toEqual(before)
    })

    it('gives concurrent finalize calls the same result', async () => {
      const { uploadId, presignedPost } = await startUpload(org.crew.api, PNG_3X2.length, 'image/png')
      await postForm(t.app, presignedPost.url, presignedPost.fields, PNG_3X2)
      const replies = await Promise.all([1, 2, 3].map(() => org.crew.api.post(`${uploadUrl(uploadId)}/finalize`)))
      expect(replies.map((r) => [r.status, r.body.status, r.body.width])).toEqual([
        [200, 'ready', 3],
        [200, 'ready', 3],
        [200, 'ready', 3],
      ])
      // One checked copy kept; the incoming object and any copy a losing call made are removed.
      const kept = await store.storedKeys(org.id, uploadId)
      expect(kept).toHaveLength(1)
      expect(
        (await t.database.db.selectFrom('uploads').select('storage_key').where('id', '=', uploadId).executeTakeFirstOrThrow()).storage_key,
      ).toBe(kept[0])
    })

    it('refuses to finalize a stored object whose size is not the declared one (409)', async () => {
      const { uploadId } = await startUpload(org.crew.api, 10, 'image/png')
      await store.writeObject(`${org.id}/${uploadId}/incoming`, PNG_3X2, 'image/png')
      const res = await org.crew.api.post(`${uploadUrl(uploadId)}/finalize`)
      expect(res.status).toBe(409)
      expect(res.body).toEqual({ detail: `The uploaded file has ${PNG_3X2.length} bytes, not the declared 10` })
      expect((await org.crew.api.get(uploadUrl(uploadId))).body).toMatchObject({ status: 'pending', sizeBytes: 10 })
    })

    it("does not take an object written under any key but the intent's own (409)", async () => {
      const { uploadId } = await startUpload(org.crew.api, PNG_3X2.length, 'image/png')
      const other = await startUpload(org.crew.api, PNG_3X2.length, 'image/png')
      await store.writeObject(`${org.id}/${uploadId}/elsewhere`, PNG_3X2, 'image/png')
      await store.writeObject(`${org.id}/${other.uploadId}/incoming`, PNG_3X2, 'image/png')
      const res = await org.crew.api.post(`${uploadUrl(uploadId)}/finalize`)
      expect(res.status).toBe(409)
      expect(res.body).toEqual({ detail: 'No file has been uploaded for this upload yet' })
      expect((await org.crew.api.get(uploadUrl(uploadId))).body.status).toBe('pending')
    })

    it('takes files above the 1 MiB API body limit', async () => {
      const big = Buffer.concat([PNG_3X2, Buffer.alloc(3 * 1024 * 1024)])
      const { uploadId, presignedPost } = await startUpload(org.crew.api, big.length, 'image/png')
      expect((await postForm(t.app, presignedPost.url, presignedPost.fields, big)).status).toBe(204)
      const finalized = await org.crew.api.post(`${uploadUrl(uploadId)}/finalize`)
      expect(finalized.body).toMatchObject({ status: 'ready', sizeBytes: big.length, width: 3, height: 2 })
      const row = await t.database.db
        .selectFrom('uploads')
        .select(['sha256', 'size_bytes'])
        .where('id', '=', uploadId)
        .executeTakeFirstOrThrow()
      expect(row).toEqual({ sha256: createHash('sha256').update(big).digest('hex'), size_bytes: big.length })
    })

    it('serves the checked bytes, never a file posted again with the same form', async () => {
      const { uploadId, presignedPost, finalized } = await uploadFile(t.app, org.crew.api, PNG_3X2, 'image/png')
      const swapped = Buffer.alloc(PNG_3X2.length, 0x41)
      expect((await postForm(t.app, presignedPost.url, presignedPost.fields, swapped)).status).toBe(204)
      expect((await org.crew.api.post(`${uploadUrl(uploadId)}/finalize`)).body).toMatchObject({ status: 'ready' })
      expect((await download(t.app, finalized.body.downloadUrl)).bytes.equals(PNG_3X2)).toBe(true)
    })

    it('refuses to finalize before the file has arrived (409) and stays pending', async () => {
      const { uploadId } = await startUpload(org.crew.api, 10, 'image/png')
      const res = await org.crew.api.post(`${uploadUrl(uploadId)}/finalize`)
      expect(res.status).toBe(409)
      expect(res.body).toEqual({ detail: 'No file has been uploaded for this upload yet' })
      expect((await org.crew.api.get(uploadUrl(uploadId))).body.status).toBe('pending')
    })
  })

  describe('upload intent policy', () => {
    it('lets every role start an upload', async () => {
      for (const user of [org.admin, org.officeAdmin, org.officeEmployee, org.crew]) {
        expect((await user.api.post(INTENT, { kind: 'other', mime: 'image/png', size: 1, filename: 'a.png' })).status).toBe(201)
      }
      expect((await client(t.app).post(INTENT, { kind: 'other', mime: 'image/png', size: 1, filename: 'a.png' })).status).toBe(401)
    })

    it('reports a size over the limit and a type outside PDF, JPEG, PNG together', async () => {
      const res = await org.crew.api.post(INTENT, { kind: 'avatar', mime: 'image/gif', size: 25 * 1024 * 1024 + 1, filename: 'a.gif' })
      expect(res.status).toBe(422)
      expect(res.body.detail).toEqual([
        { loc: ['body', 'mime'], msg: "Input should be 'application/pdf', 'image/jpeg', 'image/png'", type: 'enum' },
        { loc: ['body', 'size'], msg: 'Input should be less than or equal to 26214400', type: 'less_than_equal' },
      ])
      expect(
        (await org.crew.api.post(INTENT, { kind: 'avatar', mime: 'image/png', size: 25 * 1024 * 1024, filename: 'a.png' })).status,
      ).toBe(201)
    })

    it('requires every field, with a size of at least one byte', async () => {
      const res = await org.crew.api.post(INTENT, { size: 0, kind: '' })
      expect(res.status).toBe(422)
      expect(res.body.detail).toEqual(
        expect.arrayContaining([
          { loc: ['body', 'mime'], msg: 'Field required', type: 'missing' },
          { loc: ['body', 'filename'], msg: 'Field required', type: 'missing' },
          { loc: ['body', 'size'], msg: expect.any(String), type: 'greater_than_equal' },
          { loc: ['body', 'kind'], msg: expect.any(String), type: 'string_too_short' },
        ]),
      )
      expect(res.body.detail).toHaveLength(4)
    })
  })

  describe('upload access', () => {
    it('shows crew their own uploads only, and staff every upload of the organization', async () => {
      const { uploadId } = await uploadFile(t.app, org.crew.api, PNG_3X2, 'image/png')
      const otherCrew = await org.addUser('crew')
      for (const res of [await otherCrew.api.get(uploadUrl(uploadId)), await otherCrew.api.post(`${uploadUrl(uploadId)}/finalize`)]) {
        expect(res.status).toBe(404)
        expect(res.body).toEqual({ detail: 'Upload not found' })
      }
      for (const staff of [org.admin, org.officeAdmin, org.officeEmployee]) {
        expect((await staff.api.get(uploadUrl(uploadId))).body).toMatchObject({ id: uploadId, status: 'ready' })
      }
    })

    it("hides another organization's upload (404) and refuses a malformed id (422)", async () => {
      const other = await createOrg(t.app, t.database.db)
      const { uploadId } = await uploadFile(t.app, other.crew.api, PNG_3X2, 'image/png')
      for (const res of [await org.admin.api.get(uploadUrl(uploadId)), await org.admin.api.post(`${uploadUrl(uploadId)}/finalize`)]) {
        expect(res.status).toBe(404)
      }
      const bad = await org.admin.api.get(uploadUrl('not-a-uuid'))
      expect(bad.status).toBe(422)
      expect(bad.body.detail).toEqual([{ loc: ['path', 'upload_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' }])
    })
  })
})
