import { Readable } from 'node:stream'
import multipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { attachment } from '../../lib/content-disposition.js'
import { AppError, invalid, notFound } from '../../lib/errors.js'
import { ErrorBody, NoContent } from '../../lib/schemas.js'
import { type EmbeddedSigning, embeddedSigning, isLocalStorage, type LocalStorage, type PostGrant } from '../../lib/storage.js'
import type { ModulePlugin } from '../types.js'
import { Binary, DownloadQuery } from './uploads.schemas.js'

const tags = ['uploads']

/** Passes the file through while it stays within the policy's range; past the maximum it stops at once. */
async function* withinPolicy(file: AsyncIterable<Buffer>, grant: PostGrant) {
  let total = 0
  for await (const chunk of file) {
    total += chunk.length
    if (total > grant.maxBytes) throw new AppError(413, 'The file is larger than the policy allows')
    yield chunk
  }
  if (total < grant.minBytes) throw invalid(['body', 'file'], `File should have at least ${grant.minBytes} bytes`, 'too_short')
}

/** Like S3: the form's fields come first and are checked against their signed policy, then `file` is stored. */
async function receiveForm(request: FastifyRequest, signing: EmbeddedSigning, storage: LocalStorage): Promise<void> {
  if (!request.isMultipart()) throw invalid(['header', 'content-type'], 'Expected multipart/form-data', 'value_error')
  const fields: Record<string, string> = {}
  for await (const part of request.parts()) {
    if (part.type === 'field') fields[part.fieldname.toLowerCase()] = String(part.value)
    else if (part.fieldname !== 'file') part.file.resume()
    else {
      const grant = signing.checkPost(fields)
      await storage.put(grant.key, Readable.from(withinPolicy(part.file, grant)))
      return
    }
  }
  signing.checkPost(fields)
  throw invalid(['body', 'file'], 'Field required', 'missing')
}

/**
 * The embedded storage driver's two public endpoints, standing in for S3: the presigned POST target
 * and the signed download (their full URLs are storage.ts's EMBEDDED_POST_PATH and EMBEDDED_GET_PATH).
 * Both are authorized by their signature, not by a bearer token.
 */
export const embeddedStorageRoutes: ModulePlugin = async (app, { config, storage }) => {
  // With S3 the bucket takes the form and serves the downloads: no stand-ins.
  if (!isLocalStorage(storage)) return
  const signing = embeddedSigning(config)

  // Multipart parsing only in this scope. No file size limit here: the signed policy sets it per upload.
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { files: 1, fields: 20, fieldSize: 64 * 1024, fileSize: Number.POSITIVE_INFINITY } })
    scope.post(
      '/target',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Presigned POST target',
          consumes: ['multipart/form-data'],
          response: { 204: NoContent, 413: { ...ErrorBody, description: 'The file is larger than the policy allows' } },
        },
      },
      async (request, reply) => {
        try {
          await receiveForm(request, signing, storage)
        } catch (error) {
          // A refusal leaves the rest of the body unread: close the connection instead of waiting for it.
          reply.header('connection', 'close')
          throw error
        }
        return reply.status(204).send()
      },
    )
  })

  app.get(
    '/object',
    { config: { public: true }, schema: { tags, summary: 'Signed download', querystring: DownloadQuery, response: { 200: Binary } } },
    async (request, reply) => {
      const { query } = request
      signing.checkGet(query)
      const stored = await storage.stat(query.key)
      if (!stored) throw notFound('File')
      return reply
        .type(query.type)
        .headers({ 'content-length': stored.size, 'content-disposition': attachment(query.filename), 'x-content-type-options': 'nosniff' })
        .send(storage.read(query.key))
    },
  )
}
