import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { PNG_3X2, pathOf, startUpload, storedFiles } from '../../../fixtures/uploads.js'

// A real server and a real client: only over a socket does a refusal show as a status or as a reset.
let t: TestApp
let org: TestOrg
let port: number
beforeAll(async () => {
  t = await buildTestApp()
  org = await createOrg(t.app, t.database.db)
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  port = (t.app.server.address() as AddressInfo).port
})
afterAll(() => t.app.close())

const TARGET = '/api/v1/shared/uploads/target'
const MiB = 1024 * 1024
const BOUNDARY = 'seaworthy-target-test'
const FORM = `multipart/form-data; boundary=${BOUNDARY}`

interface Answer {
  status: number
  body: unknown
}

/**
 * POSTs `head`, then `fill` zero bytes in 64 KiB writes, then `tail`, as an ordinary client does:
 * it finishes sending before it reads the answer. Settles once the whole request was sent and the
 * whole answer read; a reset connection (ECONNRESET, EPIPE) on either side fails it.
 */
function send(path: string, contentType: string | undefined, head: string | Buffer, fill = 0, tail = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sent = false
    let answer: Answer | undefined
    const settle = () => sent && answer && resolve(answer)
    const req = httpRequest(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path,
        headers: {
          'content-length': Buffer.byteLength(head) + fill + Buffer.byteLength(tail),
          ...(contentType ? { 'content-type': contentType } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk) => chunks.push(chunk))
        res.on('error', reject)
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString()
          answer = { status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }
          settle()
        })
      },
    )
    req.on('error', reject)
    req.on('finish', () => {
      sent = true
      settle()
    })
    req.write(head)
    let left = fill
    const pump = () => {
      while (left > 0) {
        const size = Math.min(left, 64 * 1024)
        left -= size
        if (!req.write(Buffer.alloc(size))) return void req.once('drain', pump)
      }
      req.end(tail)
    }
    pump()
  })
}

/** The form's fields, then the head of its `file` part: the file's bytes and `closing` follow. */
function formHead(fields: Record<string, string>, boundary = BOUNDARY): string {
  const part = (name: string, extra = '') => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n`
  const text = Object.entries(fields).map(([name, value]) => `${part(name)}\r\n${value}\r\n`)
  return `${text.join('')}${part('file', '; filename="scan.png"')}Content-Type: image/png\r\n\r\n`
}
const closing = `\r\n--${BOUNDARY}--\r\n`

const malformed = { status: 422, body: { detail: [{ loc: ['body'], msg: 'Malformed multipart/form-data body', type: 'value_error' }] } }
const notMultipart = {
  status: 422,
  body: { detail: [{ loc: ['header', 'content-type'], msg: 'Expected multipart/form-data', type: 'value_error' }] },
}

describe('the presigned POST target refuses and is heard', () => {
  it('answers 403 to a tampered policy after reading the rest of a 4 MiB body, and stores nothing', async () => {
    const { uploadId, presignedPost } = await startUpload(org.crew.api, 4 * MiB, 'image/png')
    const tampered = { ...presignedPost.fields, 'x-seaworthy-signature': '00'.repeat(32) }
    const answer = await send(pathOf(presignedPost.url), FORM, formHead(tampered), 4 * MiB, closing)
    expect(answer).toEqual({ status: 403, body: { detail: 'Invalid policy signature' } })
    expect(await storedFiles(t.config.dataDir, uploadId)).toEqual([])
  })

  it('answers 413 to a file larger than the policy after reading the rest of the body, and stores nothing', async () => {
    const { uploadId, presignedPost } = await startUpload(org.crew.api, 1000, 'image/png')
    const answer = await send(pathOf(presignedPost.url), FORM, formHead(presignedPost.fields), 4 * MiB, closing)
    expect(answer).toEqual({ status: 413, body: { detail: 'The file is larger than the policy allows' } })
    expect(await storedFiles(t.config.dataDir, uploadId)).toEqual([])
    expect((await org.crew.api.post(`/api/v1/shared/uploads/${uploadId}/finalize`)).status).toBe(409)
  })

  it('answers 422 to a large body that is not multipart, whatever its type', async () => {
    for (const type of ['application/octet-stream', 'application/json', 'application/x-www-form-urlencoded', undefined]) {
      expect(await send(TARGET, type, '{"key":"', 3 * MiB, '"}')).toEqual(notMultipart)
    }
  })

  it('answers 422, never 500, to a malformed multipart body', async () => {
    const { uploadId, presignedPost } = await startUpload(org.crew.api, 4 * MiB, 'image/png')
    const path = pathOf(presignedPost.url)
    const fields = formHead(presignedPost.fields)
    const cases: [string, string, string | Buffer, number?, string?][] = [
      ['no boundary', 'multipart/form-data', fields, 0, closing],
      ['another boundary', 'multipart/form-data; boundary=not-the-one-used', fields, 2 * MiB, closing],
      ['truncated in the fields', FORM, fields.slice(0, fields.length / 2)],
      ['truncated in the file', FORM, fields, 2 * MiB],
      ['garbage', FORM, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))],
    ]
    for (const [name, type, head, fill, tail] of cases) {
      expect({ name, ...(await send(path, type, head, fill, tail)) }).toEqual({ name, ...malformed })
    }
    expect(await storedFiles(t.config.dataDir, uploadId)).toEqual([])
  })

  it('answers 422 to a form without a file, and still stores a correct form', async () => {
    const { uploadId, presignedPost } = await startUpload(org.crew.api, PNG_3X2.length, 'image/png')
    const onlyFields = formHead(presignedPost.fields).replace(
      /--[^\r]+\r\nContent-Disposition: form-data; name="file".*$/s,
      `--${BOUNDARY}--\r\n`,
    )
    expect(await send(pathOf(presignedPost.url), FORM, onlyFields)).toEqual({
      status: 422,
      body: { detail: [{ loc: ['body', 'file'], msg: 'Field required', type: 'missing' }] },
    })
    const stored = await send(
      pathOf(presignedPost.url),
      FORM,
      Buffer.concat([Buffer.from(formHead(presignedPost.fields)), PNG_3X2]),
      0,
      closing,
    )
    expect(stored).toEqual({ status: 204, body: undefined })
    expect((await org.crew.api.post(`/api/v1/shared/uploads/${uploadId}/finalize`)).body).toMatchObject({
      status: 'ready',
      sizeBytes: PNG_3X2.length,
    })
  })
})
