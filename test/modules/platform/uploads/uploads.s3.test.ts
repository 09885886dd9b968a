import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:net'
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { createPresignedPost } from '@aws-sdk/s3-presigned-post'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildTestApp, client, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { S3RVER_CREDENTIALS } from '../../../s3.js'
import { attachment } from '../../../../src/lib/content-disposition.js'
import { READY_TIMEOUT_MS } from '../../../../src/lib/storage-s3.js'
import { formBody, openStore, PNG_3X2, postForm, type StoreUnderTest, startUpload, uploadFile } from '../../../fixtures/uploads.js'

// What s3rver cannot judge (it checks no v4 signature and ignores POST policies) is checked here: the
// policy and signatures the service hands out, and how it treats objects written around the policy.
let store: StoreUnderTest
let t: TestApp
let org: TestOrg
let sdk: S3Client
beforeAll(async () => {
  store = await openStore('s3')
  t = store.t
  org = await createOrg(t.app, t.database.db)
  // An independent client with the service's settings, to sign the same inputs with the AWS SDK.
  sdk = new S3Client({
    region: 'us-east-1',
    endpoint: store.s3!.endpoint,
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
})
afterAll(async () => {
  sdk.destroy()
  await store.close()
})
afterEach(() => vi.useRealTimers())

const uploadUrl = (id: string) => `/api/v1/shared/uploads/${id}`
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest()

/** Freezes the clock at a whole second, so the service and the test sign at the same instant. */
function freezeClock(): Date {
  const now = new Date(Math.floor(Date.now() / 1000) * 1000)
  vi.useFakeTimers({ toFake: ['Date'], now })
  return now
}

describe('presigned POST policy (v4)', () => {
  it('holds the exact key, type and size, expires with UPLOAD_URL_TTL_SECONDS, and is signed as AWS signs it', async () => {
    const now = freezeClock()
    const { uploadId, presignedPost } = await startUpload(org.crew.api, 1234, 'application/pdf')
    const { fields } = presignedPost
    const key = `${org.id}/${uploadId}/incoming`
    const amzDate = now.toISOString().replace(/[-:]|\.\d{3}/g, '')
    const credential = `S3RVER/${amzDate.slice(0, 8)}/us-east-1/s3/aws4_request`
    expect(JSON.parse(Buffer.from(fields.Policy, 'base64').toString())).toEqual({
      expiration: new Date(now.getTime() + t.config.uploadUrlTtlSeconds * 1000).toISOString().replace('.000', ''),
      conditions: [
        ['content-length-range', 1234, 1234],
        { 'Content-Type': 'application/pdf' },
        { bucket: store.s3!.bucket },
        { 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256' },
        { 'X-Amz-Credential': credential },
        { 'X-Amz-Date': amzDate },
        { key },
      ],
    })
    expect(fields).toMatchObject({ key, 'Content-Type': 'application/pdf', 'X-Amz-Credential': credential, 'X-Amz-Date': amzDate })

    // The v4 signing key chain, recomputed with node:crypto: secret → date → region → service → request.
    const signingKey = ['us-east-1', 's3', 'aws4_request'].reduce(
      hmac,
      hmac(`AWS4${S3RVER_CREDENTIALS.secretAccessKey}`, amzDate.slice(0, 8)),
    )
    expect(fields['X-Amz-Signature']).toBe(hmac(signingKey, fields.Policy).toString('hex'))

    // And the AWS SDK, given the same inputs at the same instant, produces the same form.
    const expected = await createPresignedPost(sdk, {
      Bucket: store.s3!.bucket,
      Key: key,
      Conditions: [['content-length-range', 1234, 1234], { 'Content-Type': 'application/pdf' }],
      Fields: { 'Content-Type': 'application/pdf' },
      Expires: t.config.uploadUrlTtlSeconds,
    })
    expect(presignedPost).toEqual(expected)
  })
})

describe('presigned download (v4)', () => {
  it('is the AWS SDK signed GET of the checked copy, typed and named for download', async () => {
    const { uploadId } = await uploadFile(t.app, org.crew.api, PNG_3X2, 'image/png', 'crew photo é.png')
    const row = await t.database.db.selectFrom('uploads').select('storage_key').where('id', '=', uploadId).executeTakeFirstOrThrow()
    expect(row.storage_key).toMatch(new RegExp(`^${org.id}/${uploadId}/[0-9a-f-]{36}$`))

    freezeClock()
    const { downloadUrl } = (await org.crew.api.get(uploadUrl(uploadId))).body
    const command = new GetObjectCommand({
      Bucket: store.s3!.bucket,
      Key: row.storage_key,
      ResponseContentType: 'image/png',
      ResponseContentDisposition: attachment('crew photo é.png'),
    })
    expect(downloadUrl).toBe(await getSignedUrl(sdk, command, { expiresIn: t.config.uploadUrlTtlSeconds }))
    const query = new URL(downloadUrl).searchParams
    expect([query.get('X-Amz-Expires'), query.get('response-content-type'), query.get('response-content-disposition')]).toEqual([
      String(t.config.uploadUrlTtlSeconds),
      'image/png',
      `attachment; filename="crew photo _.png"; filename*=UTF-8''crew%20photo%20%C3%A9.png`,
    ])
  })
})

describe('objects written around the policy', () => {
  it('does not take an object whose stored type is not the declared one (409), and stays pending until the form is used', async () => {
    const { uploadId, presignedPost } = await startUpload(org.crew.api, PNG_3X2.length, 'image/png')
    await store.writeObject(`${org.id}/${uploadId}/incoming`, PNG_3X2, 'text/html')
    const res = await org.crew.api.post(`${uploadUrl(uploadId)}/finalize`)
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ detail: 'The uploaded file has type text/html, not the declared image/png' })
    expect((await org.crew.api.get(uploadUrl(uploadId))).body).toMatchObject({ status: 'pending', downloadUrl: null })

    expect((await postForm(t.app, presignedPost.url, presignedPost.fields, PNG_3X2)).status).toBe(204)
    expect((await org.crew.api.post(`${uploadUrl(uploadId)}/finalize`)).body).toMatchObject({ status: 'ready', width: 3 })
  })
})

describe('with S3 configured', () => {
  it('serves no embedded upload target or public download endpoint', async () => {
    const { payload, contentType } = await formBody({ key: 'x' }, PNG_3X2)
    expect((await client(t.app).post('/api/v1/shared/uploads/target', payload, { 'content-type': contentType })).status).toBe(404)
    // Without the download endpoint, "object" is read as an upload id: a route that wants a token.
    const download = await client(t.app).get('/api/v1/shared/uploads/object?key=x')
    expect({ status: download.status, body: download.body }).toEqual({ status: 401, body: { detail: 'Not authenticated' } })
  })
})

describe('/readyz', () => {
  const readyz = async (app: TestApp) => {
    const res = await client(app.app).get('/readyz')
    return { status: res.status, body: res.body }
  }

  it('is ready while the bucket answers', async () => {
    expect(await readyz(t)).toEqual({ status: 200, body: { status: 'ready' } })
  })

  it('answers 503 when the bucket does not exist', async () => {
    const app = await buildTestApp({ ...store.s3!.env, S3_BUCKET: 'no-such-bucket' })
    try {
      expect(await readyz(app)).toEqual({ status: 503, body: { detail: 'Storage unavailable' } })
    } finally {
      await app.app.close()
    }
  })

  it('answers 503 within its timeout when the storage endpoint accepts connections but never answers', async () => {
    const silent: Server = createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as { port: number }
    const app = await buildTestApp({ ...store.s3!.env, S3_ENDPOINT: `http://127.0.0.1:${port}` })
    try {
      const started = Date.now()
      expect(await readyz(app)).toEqual({ status: 503, body: { detail: 'Storage unavailable' } })
      expect(Date.now() - started).toBeLessThan(READY_TIMEOUT_MS + 1000)
    } finally {
      await app.app.close()
      silent.close()
    }
  })
})
