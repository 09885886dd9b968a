import Type, { type Static } from 'typebox'
import { UPLOAD_STATUSES } from '../../db/schema.js'
import { DateTime, IdParams, Nullable, Uuid } from '../../lib/schemas.js'

export const UPLOAD_MIMES = ['application/pdf', 'image/jpeg', 'image/png'] as const
export type UploadMime = (typeof UPLOAD_MIMES)[number]

/** The size limit is configuration (UPLOAD_MAX_BYTES), so the intent schema is built with it. */
export const UploadIntent = (maxBytes: number) =>
  Type.Object({
    kind: Type.String({ minLength: 1, maxLength: 64, description: 'What the file is for, e.g. identity_document, certificate' }),
    mime: Type.Enum([...UPLOAD_MIMES]),
    size: Type.Integer({ minimum: 1, maximum: maxBytes, description: 'The exact size of the file in bytes' }),
    filename: Type.String({ minLength: 1, maxLength: 255 }),
  })
export type UploadIntent = Static<ReturnType<typeof UploadIntent>>

export const PresignedUpload = Type.Object({
  uploadId: Uuid,
  presignedPost: Type.Object({
    url: Type.String({ description: 'POST multipart form data here: every field of `fields`, then `file`' }),
    fields: Type.Record(Type.String(), Type.String()),
  }),
})

export const Upload = Type.Object({
  id: Uuid,
  status: Type.Enum(UPLOAD_STATUSES),
  kind: Type.String(),
  originalFilename: Type.String(),
  sizeBytes: Type.Integer(),
  createdAt: DateTime,
  downloadUrl: Nullable(Type.String({ description: 'Signed and short-lived; only when ready' })),
  derivatives: Type.Array(Type.Unknown()),
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
  pageCount: Nullable(Type.Integer()),
  threatName: Nullable(Type.String({ description: 'Why the content was rejected' })),
})
export type Upload = Static<typeof Upload>

export const UploadParams = IdParams('upload_id')

export const DownloadQuery = Type.Object({
  key: Type.String(),
  expires: Type.Integer(),
  type: Type.String(),
  filename: Type.String(),
  signature: Type.String(),
})

export const Binary = Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'The file' })
