import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { client, useTestApp } from '../../../app.js'
import { useOrg } from '../../../factories.js'
import { PNG_3X2, pathOf, postForm, startUpload, storedFiles, uploadFile } from '../../../fixtures/uploads.js'

const t = useTestApp()
const org = useOrg(t)
afterEach(() => vi.useRealTimers())

const finalize = (id: string) => org.crew.api.post(`/api/v1/shared/uploads/${id}/finalize`)
const forbidden = (detail: string) => ({ status: 403, body: { detail } })
const outcome = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body })

/** Runs `check` with the clock moved past the upload link lifetime. */
async function afterExpiry<T>(check: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.now() + (t.config.uploadUrlTtlSeconds + 1) * 1000)
  return check()
}

describe('presigned POST target', () => {
  it('refuses a tampered policy, key or type, and a missing signature (403), storing nothing', async () => {
    const { uploadId, presignedPost } = await startUpload(org.crew.api, PNG_3X2.length, 'image/png')
    const { url, fields } = presignedPost
    const policy = JSON.parse(Buffer.from(fields.policy, 'base64').toString())
    policy.conditions[2] = ['content-length-range', 1, 10_000_000]
    const widened = Buffer.from(JSON.stringify(policy)).toString('base64')

    expect(outcome(await postForm(t.app, url, { ...fields, policy: widened }, PNG_3X2))).toEqual(forbidden('Invalid policy signature'))
    expect(outcome(await postForm(t.app, url, { ...fields, 'x-seaworthy-signature': '00' }, PNG_3X2))).toEqual(
      forbidden('Invalid policy signature'),
    )
    const { 'x-seaworthy-signature': _, ...unsigned } = fields
    expect(outcome(await postForm(t.app, url, unsigned, PNG_3X2))).toEqual(forbidden('Invalid policy signature'))
    const otherKey = { ...fields, key: fields.key.replace('incoming', 'content') }
    expect(outcome(await postForm(t.app, url, otherKey, PNG_3X2))).toEqual(forbidden('Policy condition failed: key'))
    const otherType = { ...fields, 'Content-Type': 'text/html' }
    expect(outcome(await postForm(t.app, url, otherType, PNG_3X2))).toEqual(forbidden('Policy condition failed: Content-Type'))
    expect(await storedFiles(t.config.dataDir, uploadId)).toEqual([])
  })

  it('refuses an expired policy (403)', async () => {
    const { presignedPost } = await startUpload(org.crew.api, PNG_3X2.length, 'image/png')
    const res = await afterExpiry(() => postForm(t.app, presignedPost.url, presignedPost.fields, PNG_3X2))
    expect(outcome(res)).toEqual(forbidden('Policy expired'))
  })

  it('refuses a file larger than the policy (413) and keeps nothing of it', async () => {
    const { uploadId, presignedPost } = await startUpload(org.crew.api, 100, 'image/png')
    const res = await postForm(t.app, presignedPost.url, presignedPost.fields, Buffer.alloc(5000))
    expect(outcome(res)).toEqual({ status: 413, body: { detail: 'The file is larger than the policy allows' } })
    expect(await storedFiles(t.config.dataDir, uploadId)).toEqual([])
    expect((await finalize(uploadId)).status).toBe(409)
  })

  it('reads an endless oversize body only up to the limit, then answers 413 and closes the connection', async () => {
    const { uploadId, presignedPost } = await startUpload(org.crew.api, 1000, 'image/png')
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = t.app.server.address() as AddressInfo
    const boundary = 'seaworthy-test-boundary'
    const part = (name: string, extra = '') => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n`
    const fields = Object.entries(presignedPost.fields).map(([name, value]) => `${part(name)}\r\n${value}\r\n`)
    const head = `${fields.join('')}${part('file', '; filename="big.png"')}Content-Type: image/png\r\n\r\n`
    const limit = 64 * 1024 * 1024
    let sent = 0
    const reply = await new Promise<{ status?: number; connection?: string; error?: string }>((resolve) => {
      const req = httpRequest(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: pathOf(presignedPost.url),
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        },
        (res) => {
          resolve({ status: res.statusCode, connection: res.headers.connection })
          req.destroy()
        },
      )
      // Past the limit nothing more is read, so a client still sending may see the close as a reset
      // before it reads the answer: the contract promises the answer only up to the limit.
      req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code }))
      req.write(head)
      // Never ends the body: the server can only answer by giving up on it.
      const pump = () => {
        let more = true
        while (sent < limit && more) {
          more = req.write(Buffer.alloc(64 * 1024))
          sent += 64 * 1024
        }
        if (sent < limit) req.once('drain', pump)
      }
      pump()
    })
    expect([{ status: 413, connection: 'close' }, { error: 'EPIPE' }, { error: 'ECONNRESET' }]).toContainEqual(reply)
    // The rest was read up to the limit (the largest file and its form), not to the end.
    expect(sent).toBeGreaterThan(t.config.uploadMaxBytes)
    expect(sent).toBeLessThan(limit)
    expect(await storedFiles(t.config.dataDir, uploadId)).toEqual([])
  })

  it('refuses a file smaller than declared (422) and a form without a file (422)', async () => {
    const { uploadId, presignedPost } = await startUpload(org.crew.api, 100, 'image/png')
    const short = await postForm(t.app, presignedPost.url, presignedPost.fields, PNG_3X2)
    expect(outcome(short)).toEqual({
      status: 422,
      body: { detail: [{ loc: ['body', 'file'], msg: 'File should have at least 100 bytes', type: 'too_short' }] },
    })
    const missing = await postForm(t.app, presignedPost.url, presignedPost.fields)
    expect(outcome(missing)).toEqual({ status: 422, body: { detail: [{ loc: ['body', 'file'], msg: 'Field required', type: 'missing' }] } })
    expect(await storedFiles(t.config.dataDir, uploadId)).toEqual([])
  })

  it('refuses a body that is not a form (422)', async () => {
    const res = await client(t.app).post('/api/v1/shared/uploads/target', { key: 'x' })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([{ loc: ['header', 'content-type'], msg: 'Expected multipart/form-data', type: 'value_error' }])
  })

  it('refuses a multipart body that is not a well-formed form (422, not a 500)', async () => {
    const malformed = { detail: [{ loc: ['body'], msg: 'Malformed multipart/form-data body', type: 'value_error' }] }
    const post = (contentType: string, body: string) =>
      client(t.app).post('/api/v1/shared/uploads/target', body, { 'content-type': contentType })
    const truncated = await post('multipart/form-data; boundary=fuzz', 'a=1&b=2')
    expect(outcome(truncated)).toEqual({ status: 422, body: malformed })
    const noBoundary = await post('multipart/form-data', '--x\r\n')
    expect(outcome(noBoundary)).toEqual({ status: 422, body: malformed })
    const proto = await post(
      'multipart/form-data; boundary=b',
      '--b\r\ncontent-disposition: form-data; name="__proto__"\r\n\r\nx\r\n--b--\r\n',
    )
    expect(outcome(proto)).toEqual({ status: 422, body: malformed })
  })

  it('takes files above the 1 MiB API body limit', async () => {
    const big = Buffer.concat([PNG_3X2, Buffer.alloc(3 * 1024 * 1024)])
    const { uploadId, presignedPost } = await startUpload(org.crew.api, big.length, 'image/png')
    expect((await postForm(t.app, presignedPost.url, presignedPost.fields, big)).status).toBe(204)
    expect((await finalize(uploadId)).body).toMatchObject({ status: 'ready', sizeBytes: big.length, width: 3, height: 2 })
  })

  it('never serves bytes posted again after the content was checked', async () => {
    const { uploadId, presignedPost, finalized } = await uploadFile(t.app, org.crew.api, PNG_3X2, 'image/png')
    const swapped = Buffer.alloc(PNG_3X2.length, 0x41)
    expect((await postForm(t.app, presignedPost.url, presignedPost.fields, swapped)).status).toBe(204)
    expect((await finalize(uploadId)).body).toMatchObject({ status: 'ready' })
    const download = await t.app.inject({ method: 'GET', url: pathOf(finalized.body.downloadUrl) })
    expect(download.rawPayload.equals(PNG_3X2)).toBe(true)
  })
})

describe('signed download', () => {
  it('refuses a tampered or expired link (403)', async () => {
    const { finalized } = await uploadFile(t.app, org.crew.api, PNG_3X2, 'image/png', 'photo.png')
    const url = new URL(finalized.body.downloadUrl)
    const tamper = (name: string, value: string) => {
      const copy = new URL(url)
      copy.searchParams.set(name, value)
      return client(t.app).get(pathOf(copy.href))
    }
    const other = await uploadFile(t.app, org.crew.api, PNG_3X2, 'image/png')
    const otherKey = new URL(other.finalized.body.downloadUrl).searchParams.get('key')!
    for (const res of [
      await tamper('key', otherKey),
      await tamper('type', 'text/html'),
      await tamper('filename', 'photo.html'),
      await tamper('expires', String(Number(url.searchParams.get('expires')) + 3600)),
      await tamper('signature', 'ab'.repeat(32)),
    ]) {
      expect(outcome(res)).toEqual(forbidden('Invalid signature'))
    }
    expect((await client(t.app).get(pathOf(url.href))).status).toBe(200)
    const expired = await afterExpiry(() => client(t.app).get(pathOf(url.href)))
    expect(outcome(expired)).toEqual(forbidden('Link expired'))
  })

  it('offers no link until the upload is ready', async () => {
    const { uploadId } = await startUpload(org.crew.api, PNG_3X2.length, 'image/png')
    expect((await org.crew.api.get(`/api/v1/shared/uploads/${uploadId}`)).body.downloadUrl).toBeNull()
  })
})
