import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { PDFDocument } from 'pdf-lib'
import { expect } from 'vitest'
import { type Client, client } from '../../../test/app.js'
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

/** POSTs the form to the presigned target, anonymously, as a client of S3 would. */
export async function postForm(app: App, url: string, fields: Record<string, string>, file?: Buffer) {
  const { payload, contentType } = await formBody(fields, file)
  return client(app).post(pathOf(url), payload, { 'content-type': contentType })
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
