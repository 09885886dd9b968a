import { v7 as uuidv7 } from 'uuid'
import { type Actor, MANAGERS, rowOwner } from '../../../lib/access.js'
import { forbidden, notFound } from '../../../lib/errors.js'
import { ErrorBody } from '../../../lib/schemas.js'
import type { ModulePlugin } from '../../types.js'
import { findUpload, insertUpload } from './uploads.queries.js'
import { PACKAGE_KIND, PresignedUpload, Upload, UploadIntent, UploadParams } from './uploads.schemas.js'
import { finalizeUpload, incomingKey, toUpload } from './uploads.service.js'

const tags = ['uploads']

/** DECISIONS §13.7: a course package is for those who manage courses. */
export function assertMayUpload(actor: Actor, kind: unknown): void {
  if (kind === PACKAGE_KIND && !MANAGERS.includes(actor.role)) throw forbidden('Only admins and office admins upload course packages')
}

export const uploadsRoutes: ModulePlugin = (app, { db, storage, config, metrics }) => {
  const expiresAt = () => new Date(Date.now() + config.uploadUrlTtlSeconds * 1000)

  // Crew reach only their own uploads; anyone else's is the same 404 as a missing one.
  const findVisible = async (actor: Actor, uploadId: string) => {
    const row = await findUpload(db, actor.orgId, uploadId, rowOwner(actor))
    if (!row) throw notFound('Upload')
    return row
  }

  app.post(
    '/intent',
    {
      schema: {
        operationId: 'createUploadIntent',
        description:
          'Declares the file (kind, media type, exact size, name) and answers with a presigned POST: send every field of `fields`, then `file`, to `url` as multipart/form-data, then finalize. Kind `course_package` is for admins and office admins (403 for other roles).',
        tags,
        summary: 'Start an upload',
        body: UploadIntent(config.uploadMaxBytes, config.coursePackageMaxBytes),
        response: { 201: PresignedUpload, 403: ErrorBody },
      },
      // Before validation, so another role's package intent is a 403 whatever its media type or size.
      preValidation: async (request) => assertMayUpload(request.actor, (request.body as { kind?: unknown } | undefined)?.kind),
    },
    async (request, reply) => {
      const { actor, body } = request
      const id = uuidv7()
      const key = incomingKey(actor.orgId, id)
      await insertUpload(db, actor.orgId, { ...body, id, userId: actor.userId, storageKey: key })
      const presignedPost = await storage.presignPost(key, { contentType: body.mime, size: body.size, expiresAt: expiresAt() })
      return reply.status(201).send({ uploadId: id, presignedPost })
    },
  )

  app.post(
    '/:upload_id/finalize',
    {
      schema: {
        operationId: 'finalizeUpload',
        description:
          'Checks the stored object against the intent (its size and declared type; a mismatch is a 409) and processes it: ready with its page count or dimensions, or rejected with a threat name.',
        tags,
        summary: 'Finish an upload and process it',
        params: UploadParams,
        response: { 200: Upload, 409: ErrorBody },
      },
    },
    async (request) => {
      const row = await findVisible(request.actor, request.params.upload_id)
      return toUpload(await finalizeUpload(db, request.actor, storage, metrics, row), storage, expiresAt())
    },
  )

  app.get(
    '/:upload_id',
    {
      schema: {
        operationId: 'getUpload',
        description: "The upload's status; `downloadUrl` is a signed, short-lived link once the upload is ready.",
        tags,
        summary: 'An upload, with a download link once ready',
        params: UploadParams,
        response: { 200: Upload },
      },
    },
    async (request) => toUpload(await findVisible(request.actor, request.params.upload_id), storage, expiresAt()),
  )
}
