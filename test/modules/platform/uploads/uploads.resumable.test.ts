import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { todayUtc } from '../../../../src/lib/dates.js'
import { createStorage } from '../../../../src/lib/storage.js'
import { resumableExpirySweep } from '../../../../src/modules/platform/jobs/resumable-uploads.sweep.js'
import { runSweep } from '../../../../src/modules/platform/jobs/sweeps.js'
import { resumableStore } from '../../../../src/modules/platform/uploads/uploads.resumable-store.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { relay, sendResumably } from '../../../fixtures/tus.js'
import { JPEG_12X7, openStore, PNG_3X2, STORES, type StoreUnderTest } from '../../../fixtures/uploads.js'

const MB = 1024 * 1024
// A JPEG whose header is in its first bytes, then 5 MB more: sniffed and measured as a JPEG.
const SCAN = Buffer.concat([JPEG_12X7, randomBytes(5 * MB)])
const meta = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',')
const JPEG_META = { kind: 'identity_document', filename: 'passport.jpg', filetype: 'image/jpeg' }

// Embedded storage only: @tus/s3-store resumes from S3's ListParts and ends with AbortMultipartUpload,
// which s3rver does not implement (it answers 405), so the S3 datastore is not exercised here.
describe.each(STORES.filter((name) => name === 'embedded'))('resumable uploads (tus) on %s storage', (name) => {
  let store: StoreUnderTest
  let org: TestOrg
  let base: string
  beforeAll(async () => {
    store = await openStore(name)
    org = await createOrg(store.t.app, store.t.database.db)
    await store.t.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(store.t.app.server.address() as AddressInfo).port}`
  })
  afterAll(() => store.close())

  const endpoint = (at: string) => `${at}/api/v1/shared/resumable-uploads`
  const idOf = (url: string) => url.split('/').pop()!
  const tus = (method: string, url: string, token: string, headers: Record<string, string> = {}, body?: Buffer) =>
    fetch(url.startsWith('http') ? url : `${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', ...headers },
      body: body && new Uint8Array(body),
    })
  const create = (token: string, length: number, fields: Record<string, string> = JPEG_META) =>
    tus('POST', endpoint(base), token, { 'upload-length': String(length), 'upload-metadata': meta(fields) })

  it('resumes a 5 MB scan cut midway at the offset the service kept, and makes the same upload as §5', async () => {
    const link = await relay((store.t.app.server.address() as AddressInfo).port, { marker: 'PATCH ', bytes: 2.5 * MB })
    try {
      const sent = await sendResumably(endpoint(link.url), org.crew.token, SCAN, JPEG_META)
      expect(link.wasCut()).toBe(true)
      // It asked where to resume once, and the service had kept most of what arrived before the cut.
      expect(sent.resumedAt).toHaveLength(1)
      expect(sent.resumedAt[0]).toBeGreaterThan(1 * MB)
      // Every byte on the wire, both attempts and their headers: the file and little more.
      expect(link.sent()).toBeGreaterThanOrEqual(SCAN.length)
      expect(link.sent()).toBeLessThan(SCAN.length + 1.2 * MB)
      expect(sent.status).toBe('ready')

      const uploadId = idOf(sent.url)
      const upload = await org.crew.api.get(`/api/v1/shared/uploads/${uploadId}`)
      expect(upload.body).toMatchObject({
        id: uploadId,
        status: 'ready',
        kind: 'identity_document',
        sizeBytes: SCAN.length,
        width: 12,
        height: 7,
      })
      // The checked copy alone stays in the store: no incoming bytes, no transfer state.
      const keys = await store.storedKeys(org.id, uploadId)
      expect(keys).toHaveLength(1)
      expect(keys[0]).not.toMatch(/incoming/)

      // The record takes it as it takes a §5 upload, once.
      const passport = { documentType: 'passport', documentNumber: 'P123', uploadId }
      const created = await org.crew.api.post(`/api/v1/crew/users/${org.crew.id}/identity-documents`, passport)
      expect(created.status).toBe(201)
      const stored = await store.t.database.db
        .selectFrom('identity_documents')
        .select('upload_id')
        .where('id', '=', created.body.id)
        .executeTakeFirst()
      expect(stored?.upload_id).toBe(uploadId)
      const again = await org.crew.api.post(`/api/v1/crew/users/${org.crew.id}/identity-documents`, { ...passport, documentNumber: 'P124' })
      expect(again.status).toBe(422)
      expect(again.body.detail[0].loc).toEqual(['body', 'uploadId'])

      // Asked again after the end, it reports the whole length; more bytes are refused.
      const head = await tus('HEAD', sent.url, org.crew.token)
      expect([head.status, head.headers.get('upload-offset')]).toEqual([200, String(SCAN.length)])
      const patch = await tus(
        'PATCH',
        sent.url,
        org.crew.token,
        { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        PNG_3X2,
      )
      expect(patch.status).toBe(409)
    } finally {
      await link.close()
    }
  })

  it("keeps a transfer its creator's: another crew member, an admin and another organization get 404", async () => {
    const other = await createOrg(store.t.app, store.t.database.db)
    const mate = await org.addUser('crew')
    const created = await create(org.crew.token, PNG_3X2.length, { ...JPEG_META, filetype: 'image/png' })
    expect(created.status).toBe(201)
    const url = created.headers.get('location')!
    expect(url).toMatch(/^\/api\/v1\/shared\/resumable-uploads\/[0-9a-f-]{36}$/)
    const bytes = { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }
    for (const token of [mate.token, org.admin.token, other.crew.token, other.admin.token]) {
      expect((await tus('HEAD', url, token)).status).toBe(404)
      const patch = await tus('PATCH', url, token, bytes, PNG_3X2)
      expect([patch.status, await patch.json()]).toEqual([404, { detail: 'Upload not found' }])
    }
    expect((await mate.api.post(`/api/v1/shared/uploads/${idOf(url)}/finalize`)).status).toBe(404)
    expect((await other.admin.api.post(`/api/v1/shared/uploads/${idOf(url)}/finalize`)).status).toBe(404)
    // No token: 401, before anything is looked up.
    expect((await fetch(`${base}${url}`, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } })).status).toBe(401)
    // Nothing arrived from them; the creator's own bytes complete it.
    expect((await tus('HEAD', url, org.crew.token)).headers.get('upload-offset')).toBe('0')
    const own = await tus('PATCH', url, org.crew.token, bytes, PNG_3X2)
    expect([own.status, own.headers.get('upload-status')]).toEqual([204, 'ready'])
    // The tus server answers itself, with the headers every answer of the service carries.
    expect([own.headers.get('x-request-id'), own.headers.get('x-content-type-options'), own.headers.get('cache-control')]).toEqual([
      expect.any(String),
      'nosniff',
      'no-store',
    ])
  })

  it('refuses what §5 refuses: too large, a type not allowed, no Upload-Length, content not of its declared type', async () => {
    const max = store.t.config.uploadMaxBytes
    const tooLarge = await create(org.crew.token, max + 1)
    expect([tooLarge.status, (await tooLarge.json()).detail[0]]).toEqual([
      422,
      expect.objectContaining({ loc: ['header', 'upload-length'], type: 'less_than_equal' }),
    ])
    const wrongType = await create(org.crew.token, 100, { ...JPEG_META, filetype: 'text/plain' })
    expect([wrongType.status, (await wrongType.json()).detail[0].loc]).toEqual([422, ['header', 'upload-metadata', 'filetype']])
    const noLength = await tus('POST', endpoint(base), org.crew.token, { 'upload-metadata': meta(JPEG_META) })
    expect([noLength.status, (await noLength.json()).detail]).toEqual([
      422,
      [{ loc: ['header', 'upload-length'], msg: expect.any(String), type: 'missing' }],
    ])
    const garbled = await tus('POST', endpoint(base), org.crew.token, { 'upload-length': '10', 'upload-metadata': 'kind ***' })
    expect([garbled.status, (await garbled.json()).detail[0].loc]).toEqual([422, ['header', 'upload-metadata']])
    const pkg = await create(org.crew.token, 100, { ...JPEG_META, kind: 'course_package', filetype: 'application/zip' })
    expect(pkg.status).toBe(403)
    // A PNG declared as a JPEG arrives, and is rejected by the same inspection as §5's.
    const created = await create(org.crew.token, PNG_3X2.length)
    const url = created.headers.get('location')!
    const sent = await tus(
      'PATCH',
      url,
      org.crew.token,
      { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      PNG_3X2,
    )
    expect([sent.status, sent.headers.get('upload-status')]).toEqual([204, 'rejected'])
    expect((await org.crew.api.get(`/api/v1/shared/uploads/${idOf(url)}`)).body).toMatchObject({
      status: 'rejected',
      threatName: 'ContentTypeMismatch',
    })
    // A PATCH body longer than what is missing is refused whole.
    const short = await create(org.crew.token, 10)
    const over = await tus(
      'PATCH',
      short.headers.get('location')!,
      org.crew.token,
      { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      randomBytes(11),
    )
    expect(over.status).toBe(413)
  })

  it('drops an unfinished upload once it expires: bytes, transfer state and row', async () => {
    const created = await create(org.crew.token, 1000)
    const url = created.headers.get('location')!
    const uploadId = idOf(url)
    const bytes = { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }
    expect((await tus('PATCH', url, org.crew.token, bytes, randomBytes(400))).headers.get('upload-offset')).toBe('400')
    expect(await store.storedKeys(org.id, uploadId)).not.toEqual([])
    const { db } = store.t.database
    await db.updateTable('uploads').set({ resumable_until: sql<Date>`now() - interval '1 second'` }).where('id', '=', uploadId).execute()
    // Past its time it is gone for the client at once (which then starts a new upload)...
    expect((await tus('HEAD', url, org.crew.token)).status).toBe(404)
    // ...and the sweep removes what was kept.
    const sweep = resumableExpirySweep(resumableStore(store.t.config, createStorage(store.t.config)))
    expect(await runSweep(db, sweep, todayUtc())).toMatchObject({ ran: true })
    expect(await store.storedKeys(org.id, uploadId)).toEqual([])
    expect(await db.selectFrom('uploads').select('id').where('id', '=', uploadId).executeTakeFirst()).toBeUndefined()
  })
})
