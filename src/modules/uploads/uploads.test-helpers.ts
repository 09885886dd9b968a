import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3'
import { PDFDocument } from 'pdf-lib'
import { expect } from 'vitest'
import { buildTestApp, type Client, client, type TestApp } from '../../../test/app.js'
import { startS3, type TestS3 } from '../../../test/s3.js'
import type { App } from '../../app.js'

/** A 3×2 red PNG. */
export const PNG_3X2 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAEElEQVR4nGP4z8AAQQxwFgBB0gX7h/C5SAAAAABJRU5ErkJggg==',
  'base64',
)

/** A 12×7 grey baseline JPEG. */
export const JPEG_12X7 = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/' +
    'wAALCAAHAAwBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAAP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AD//Z',
  'base64',
)

/** JPEG_12X7 with `segments` application segments of 64 KiB of metadata before its size header. */
export function jpegWithMetadata(segments: number): Buffer {
  const segment = Buffer.concat([Buffer.from([0xff, 0xeb, 0xff, 0xff]), Buffer.alloc(0xfffd)])
  return Buffer.concat([JPEG_12X7.subarray(0, 2), ...Array(segments).fill(segment), JPEG_12X7.subarray(2)])
}

export async function pdfWithPages(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create()
  for (let i = 0; i < pages; i++) pdf.addPage()
  return Buffer.from(await pdf.save())
}

export interface PresignedUpload {
  uploadId: string
  presignedPost: { url: string; fields: Record<string, string> }
}

/** The request path (and query) of an absolute URL the service handed out. */
export const pathOf = (url: string) => {
  const { pathname, search } = new URL(url)
  return pathname + search
}

/** A multipart form as a browser sends it: the fields in order, then `file` when given. */
export async function formBody(fields: Record<string, string>, file?: Buffer) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  if (file) form.append('file', new Blob([new Uint8Array(file)]), 'upload.bin')
  const request = new Request('http://localhost/', { method: 'POST', body: form })
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! }
}

// The service's own URLs (under /api/) go through inject; any other (the S3 bucket's) over the network.
const isServiceUrl = (url: string) => new URL(url).pathname.startsWith('/api/')

/** POSTs the form to the presigned target, anonymously, as a browser would. */
export async function postForm(app: App, url: string, fields: Record<string, string>, file?: Buffer) {
  const { payload, contentType } = await formBody(fields, file)
  if (isServiceUrl(url)) return client(app).post(pathOf(url), payload, { 'content-type': contentType })
  const res = await fetch(url, { method: 'POST', body: new Uint8Array(payload), headers: { 'content-type': contentType } })
  return { status: res.status, body: await res.text() }
}

/** GETs a download link, anonymously: status, the headers a browser acts on, and the bytes. */
export async function download(app: App, url: string) {
  if (isServiceUrl(url)) {
    const res = await app.inject({ method: 'GET', url: pathOf(url) })
    return {
      status: res.statusCode,
      type: res.headers['content-type'],
      disposition: res.headers['content-disposition'],
      bytes: res.rawPayload,
    }
  }
  const res = await fetch(url)
  const bytes = Buffer.from(await res.arrayBuffer())
  return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), bytes }
}

export async function startUpload(user: Client, size: number, mime: string, filename = 'scan.bin'): Promise<PresignedUpload> {
  const res = await user.post<PresignedUpload>('/api/v1/shared/uploads/intent', { kind: 'certificate', mime, size, filename })
  expect(res.status).toBe(201)
  return res.body
}

/** Intent, POST and finalize: the finalize reply. */
export async function uploadFile(app: App, user: Client, content: Buffer, mime: string, filename?: string) {
  const { uploadId, presignedPost } = await startUpload(user, content.length, mime, filename)
  expect((await postForm(app, presignedPost.url, presignedPost.fields, content)).status).toBe(204)
  return { uploadId, presignedPost, finalized: await user.post(`/api/v1/shared/uploads/${uploadId}/finalize`) }
}

/** Every file stored for one upload, partial writes included. */
export async function storedFiles(dataDir: string, uploadId: string): Promise<string[]> {
  const entries = await readdir(join(dataDir, 'uploads'), { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.filter((e) => e.isFile() && e.parentPath.includes(uploadId)).map((e) => join(e.parentPath, e.name))
}

export const STORES = ['embedded', 's3'] as const
export type StoreName = (typeof STORES)[number]

/** A test app on one kind of storage, with a way around the presigned POST into that storage. */
export interface StoreUnderTest {
  t: TestApp
  /** S3 only: the bucket the app uses. */
  s3: TestS3 | null
  /** Every object stored for one upload. */
  storedKeys(orgId: string, uploadId: string): Promise<string[]>
  /** Writes an object straight into the storage, as a looser driver or bucket policy could let happen. */
  writeObject(key: string, content: Buffer, contentType: string): Promise<void>
  close(): Promise<void>
}

export async function openStore(name: StoreName): Promise<StoreUnderTest> {
  if (name === 'embedded') {
    const t = await buildTestApp()
    const root = join(t.config.dataDir, 'uploads')
    return {
      t,
      s3: null,
      async storedKeys(orgId, uploadId) {
        const names = await readdir(join(root, orgId, uploadId)).catch(() => [])
        return names.map((name) => `${orgId}/${uploadId}/${name}`).sort()
      },
      async writeObject(key, content) {
        await mkdir(dirname(join(root, key)), { recursive: true })
        await writeFile(join(root, key), content)
      },
      close: () => t.app.close(),
    }
  }
  const s3 = await startS3()
  const t = await buildTestApp(s3.env)
  const Bucket = s3.bucket
  return {
    t,
    s3,
    async storedKeys(orgId, uploadId) {
      const listed = await s3.client.send(new ListObjectsV2Command({ Bucket, Prefix: `${orgId}/${uploadId}/` }))
      return (listed.Contents ?? []).map((o) => o.Key!).sort()
    },
    async writeObject(key, content, contentType) {
      await s3.client.send(new PutObjectCommand({ Bucket, Key: key, Body: content, ContentType: contentType }))
    },
    async close() {
      await t.app.close()
      await s3.close()
    },
  }
}
