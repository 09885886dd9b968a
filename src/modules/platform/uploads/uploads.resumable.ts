import type { IncomingMessage } from 'node:http'
import { Metadata, Server as TusServer } from '@tus/server'
import type { FastifyReply, FastifyRequest } from 'fastify'
import Type from 'typebox'
import { v7 as uuidv7 } from 'uuid'
import type { Actor } from '../../../lib/access.js'
import { conflict, invalid, notFound, ValidationFailed } from '../../../lib/errors.js'
import { exemptFromRequestTimeout } from '../../../lib/http-server.js'
import { REQUEST_ID_HEADER } from '../../../lib/request-id.js'
import { ErrorBody, NoContent } from '../../../lib/schemas.js'
import { createValidator } from '../../../lib/validation.js'
import type { ModulePlugin } from '../../types.js'
import { findUpload, insertUpload } from './uploads.queries.js'
import { RESUMABLE_DAYS, resumableStore } from './uploads.resumable-store.js'
import { assertMayUpload } from './uploads.routes.js'
import { UploadIntent, UploadParams } from './uploads.schemas.js'
import { finalizeUpload, incomingKey } from './uploads.service.js'

const tags = ['uploads']
/** The tus endpoint (the module's prefix in modules/index.ts). */
export const RESUMABLE_PATH = '/api/v1/shared/resumable-uploads'
const TUS_VERSION = '1.0.0'

/** What the service decided about a tus request before handing it to the tus server: whose, which upload, where. */
interface Transfer {
  actor: Actor
  uploadId: string
  key: string
  mime: string
}

// The tus server's hooks see its own request object; it carries the Node request this map is keyed by.
const transfers = new WeakMap<IncomingMessage, Transfer>()
const transferOf = (req: { runtime?: { node?: { req: unknown } } }) => transfers.get(req.runtime?.node?.req as IncomingMessage)!

// The intent's fields, as tus carries them: the size in Upload-Length, the rest in Upload-Metadata.
const HEADER_LOC: Record<string, (string | number)[]> = {
  size: ['header', 'upload-length'],
  kind: ['header', 'upload-metadata', 'kind'],
  mime: ['header', 'upload-metadata', 'filetype'],
  filename: ['header', 'upload-metadata', 'filename'],
}

const CreationHeaders = Type.Object({
  'tus-resumable': Type.Literal(TUS_VERSION),
  'upload-length': Type.Integer({ minimum: 1, description: 'The exact size of the file in bytes' }),
  'upload-metadata': Type.String({
    description:
      'tus metadata (comma-separated `key base64(value)`): `kind`, `filename` and `filetype` (the media type), as in an upload intent',
  }),
})
const TransferHeaders = Type.Object({ 'tus-resumable': Type.Literal(TUS_VERSION) })

/**
 * Resumable uploads (DECISIONS §16) with the tus protocol, beside the presigned POST of §5: creating one
 * makes the same upload row an intent makes, under the same rules; the bytes arrive at the same key; the
 * last PATCH finalizes it as §5's finalize does. Every request carries the creator's bearer token, and a
 * transfer is its creator's alone: anyone else's HEAD or PATCH is a 404.
 */
export const resumableUploadRoutes: ModulePlugin = async (app, { db, storage, config, metrics }) => {
  const store = resumableStore(config, storage)
  const validateIntent = createValidator(UploadIntent(config.uploadMaxBytes, config.coursePackageMaxBytes), { coerce: false })
  const tus = new TusServer({
    path: RESUMABLE_PATH,
    datastore: store.datastore,
    maxSize: Math.max(config.uploadMaxBytes, config.coursePackageMaxBytes),
    // Only the origins the service's own CORS allows (none by default: the console is same-origin).
    allowedOrigins: [...config.corsOrigins],
    namingFunction: (req) => transferOf(req).key,
    generateUrl: (req, { path }) => `${path}/${transferOf(req).uploadId}`,
    getFileIdFromRequest: (req) => transferOf(req).key,
    // S3 keeps the object's type from here; finalizing checks it against the declared one, as for §5.
    onUploadCreate: async (req, upload) => ({ metadata: { ...upload.metadata, contentType: transferOf(req).mime } }),
    onUploadFinish: async (req) => {
      const { actor, uploadId, key } = transferOf(req)
      const row = await findUpload(db, actor.orgId, uploadId)
      const done = await finalizeUpload(db, actor, storage, metrics, row!)
      await store.forget(key)
      return { headers: { 'Upload-Status': done.status } }
    },
  })

  const hand = async (request: FastifyRequest, reply: FastifyReply, transfer: Transfer) => {
    transfers.set(request.raw, transfer)
    // A PATCH refused before its body was read (its offset is not where the upload stands: a browser resending a
    // cut request on a fresh connection) closes the connection, so the rest of that body is not sent for nothing.
    reply.raw.once('finish', () => request.raw.complete || request.raw.destroy())
    // Hijacked, the answer skips Fastify's onSend hooks: it carries the headers they and onRequest's would.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value)
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id).setHeader('cache-control', 'no-store')
    reply.hijack()
    await tus.handle(request.raw, reply.raw)
  }

  // The creator's own transfer, unexpired; anyone else's is the same 404 as a missing one.
  const findTransfer = async (actor: Actor, uploadId: string) => {
    const row = await findUpload(db, actor.orgId, uploadId, actor.userId)
    if (!row?.resumable_until || (row.status === 'pending' && row.resumable_until <= new Date())) throw notFound('Upload')
    return row
  }

  const readIntent = (headers: Record<string, unknown>) => {
    let metadata: Record<string, string | null>
    try {
      metadata = Metadata.parse(String(headers['upload-metadata']))
    } catch {
      throw invalid(['header', 'upload-metadata'], 'Upload-Metadata is not comma-separated keys with base64 values')
    }
    const { kind, filetype, filename } = metadata
    const intent = { kind: kind ?? undefined, mime: filetype ?? undefined, size: headers['upload-length'], filename: filename ?? undefined }
    const checked = validateIntent(intent)
    if (!checked.ok) throw new ValidationFailed(checked.errors.map((issue) => ({ ...issue, loc: HEADER_LOC[issue.loc[0]] ?? ['header'] })))
    return checked.value
  }

  // The tus server reads PATCH bodies itself, as they stream in.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null))

  app.post(
    '/',
    {
      schema: {
        operationId: 'createResumableUpload',
        summary: 'Start a resumable upload (tus)',
        description: `The tus 1.0 creation request: an upload intent carried in headers (Upload-Length and Upload-Metadata's kind, filename, filetype), checked as an intent is. 201 with \`Location\`, where the file then goes with tus PATCH requests; the last one finalizes the upload (its status in \`Upload-Status\`), whose id is the Location's last segment. Unfinished uploads expire after ${RESUMABLE_DAYS} days.`,
        tags,
        headers: CreationHeaders,
        response: { 201: { ...NoContent, description: 'Created; `Location` is the upload URL' }, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      const { actor } = request
      const intent = readIntent(request.headers)
      assertMayUpload(actor, intent.kind)
      const id = uuidv7()
      const key = incomingKey(actor.orgId, id)
      const resumableUntil = new Date(Date.now() + RESUMABLE_DAYS * 86_400_000)
      await insertUpload(db, actor.orgId, { ...intent, id, userId: actor.userId, storageKey: key, resumableUntil })
      await hand(request, reply, { actor, uploadId: id, key, mime: intent.mime })
    },
  )

  app.head(
    '/:upload_id',
    {
      schema: {
        operationId: 'getResumableUploadOffset',
        summary: 'How much of a resumable upload has arrived (tus)',
        description:
          'The tus HEAD request: `Upload-Offset` is where the next PATCH starts, `Upload-Length` the whole size. A finished upload answers its whole length.',
        tags,
        headers: TransferHeaders,
        params: UploadParams,
        response: { 200: NoContent, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const row = await findTransfer(request.actor, request.params.upload_id)
      if (row.status === 'pending')
        return hand(request, reply, { actor: request.actor, uploadId: row.id, key: row.storage_key, mime: row.mime })
      const length = String(row.declared_size)
      return reply
        .headers({ 'tus-resumable': TUS_VERSION, 'upload-offset': length, 'upload-length': length, 'cache-control': 'no-store' })
        .send(null)
    },
  )

  app.patch(
    '/:upload_id',
    {
      schema: {
        operationId: 'patchResumableUpload',
        summary: 'Send the next bytes of a resumable upload (tus)',
        description:
          'The tus PATCH request: `Upload-Offset` must be where the upload stands (409 otherwise), the body (application/offset+octet-stream) at most the bytes still missing (413 otherwise). The last bytes finalize the upload.',
        tags,
        headers: TransferHeaders,
        params: UploadParams,
        response: { 204: NoContent, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const row = await findTransfer(request.actor, request.params.upload_id)
      if (row.status !== 'pending') throw conflict('The upload is complete')
      // A scan over a ship's link takes as long as it keeps the minimum rate, as the presigned POST target does.
      exemptFromRequestTimeout(request.raw)
      await hand(request, reply, { actor: request.actor, uploadId: row.id, key: row.storage_key, mime: row.mime })
    },
  )
}
