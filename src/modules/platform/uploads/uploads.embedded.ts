import { Readable } from 'node:stream'
import multipart from '@fastify/multipart'
import type { FastifyError, FastifyRequest } from 'fastify'
import { attachment } from '../../../lib/content-disposition.js'
import { AppError, invalid, notFound } from '../../../lib/errors.js'
import { discardBody, exemptFromRequestTimeout } from '../../../lib/http-server.js'
import { ErrorBody, NoContent } from '../../../lib/schemas.js'
import { type EmbeddedSigning, embeddedSigning, isLocalStorage, type LocalStorage, type PostGrant } from '../../../lib/storage.js'
import type { ModulePlugin } from '../../types.js'
import { DownloadQuery, FileBytes, UploadForm } from './uploads.schemas.js'

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

/**
 * The form parser's own failures (no boundary, a truncated part, bytes that are no form) mean a
 * malformed body: a 422, not a 500. Its limit errors (too many fields) keep their status. Only
 * errors raised while reading the form pass through here, never the policy's or the storage's.
 */
async function* parsed<T>(form: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* form
  } catch (error) {
    const { code, statusCode } = error as FastifyError
    // The plugin's own 400s (a `__proto__` field name, a body that ends early) are malformed forms too.
    const malformed = statusCode === undefined || code === 'FST_PROTO_VIOLATION' || code === 'FST_MP_PREMATURE_CLOSE'
    if (!malformed) throw error
    throw invalid(['body'], 'Malformed multipart/form-data body', 'value_error')
  }
}

/** Like S3: the form's fields come first and are checked against their signed policy, then `file` is stored. */
async function receiveForm(request: FastifyRequest, signing: EmbeddedSigning, storage: LocalStorage): Promise<void> {
  if (!request.isMultipart()) throw invalid(['header', 'content-type'], 'Expected multipart/form-data', 'value_error')
  const fields: Record<string, string> = {}
  for await (const part of parsed(request.parts())) {
    if (part.type === 'field') fields[part.fieldname.toLowerCase()] = String(part.value)
    else if (part.fieldname !== 'file') part.file.resume()
    else {
      const grant = signing.checkPost(fields)
      await storage.put(grant.key, Readable.from(withinPolicy(parsed(part.file), grant)))
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

  // The largest request worth reading to its end: the largest file plus the form's fields (20 of at most 64 KiB).
  const drainLimit = config.uploadMaxBytes + 2 * 1024 * 1024

  // Multipart parsing only in this scope. No file size limit here: the signed policy sets it per upload.
  await app.register(async (scope) => {
    // Any other body is left unread here, for the handler to refuse and discard.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null))
    await scope.register(multipart, { limits: { files: 1, fields: 20, fieldSize: 64 * 1024, fileSize: Number.POSITIVE_INFINITY } })
    scope.post(
      '/target',
      {
        config: { public: true },
        schema: {
          operationId: 'postUploadTarget',
          summary: 'Upload a file to its presigned target',
          description:
            'The embedded storage driver standing in for S3: the policy fields come first and are checked against their signature, then `file`. Clients use the URL and fields an upload intent hands out.',
          tags,
          body: UploadForm,
          response: { 204: NoContent, 413: { ...ErrorBody, description: 'The file is larger than the policy allows' }, 403: ErrorBody },
        },
      },
      async (request, reply) => {
        // A large file over a slow link takes as long as it keeps the minimum rate, as with S3.
        exemptFromRequestTimeout(request.raw)
        const refusal = await receiveForm(request, signing, storage).then(
          () => undefined,
          (error: unknown) => error,
        )
        if (!(await discardBody(request.raw, drainLimit))) reply.header('connection', 'close')
        if (refusal) throw refusal
        return reply.status(204).send()
      },
    )
  })

  app.get(
    '/object',
    {
      config: { public: true },
      schema: {
        operationId: 'downloadUploadObject',
        summary: 'Download a file by its signed link',
        description:
          "The file's bytes, for a signed and unexpired link from `downloadUrl`. Authorized by the signature, not a bearer token.",
        tags,
        querystring: DownloadQuery,
        response: { 200: FileBytes, 403: ErrorBody, 404: ErrorBody },
      },
    },
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
