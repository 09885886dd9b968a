import Type, { type Static } from 'typebox'
import { UPLOAD_STATUSES } from '../../../db/schema.js'
import { DateTime, IdParams, Nullable, Uuid } from '../../../lib/schemas.js'
import { SIGNATURE_FIELD } from '../../../lib/storage.js'

export const UPLOAD_MIMES = ['application/pdf', 'image/jpeg', 'image/png'] as const
export type UploadMime = (typeof UPLOAD_MIMES)[number]
/** A course package (DECISIONS §13.2): a zip, or a cmi5 course structure alone. */
export const PACKAGE_KIND = 'course_package'
export const PACKAGE_MIMES = ['application/zip', 'text/xml'] as const

// Each branch names every field, so a validator that closes each subschema (the OpenAPI linter's example
// check does) still sees the whole intent.
const NAMED = { kind: {}, filename: {} }

/**
 * The size limits are configuration (UPLOAD_MAX_BYTES, COURSE_PACKAGE_MAX_BYTES), so the intent schema
 * is built with them. The kind decides the policy: a course package takes a zip or XML up to its own
 * limit, every other kind PDF, JPEG or PNG up to the upload limit.
 */
export const UploadIntent = (maxBytes: number, packageMaxBytes: number) =>
  Type.Object(
    {
      kind: Type.String({
        minLength: 1,
        maxLength: 64,
        description: `What the file is for, e.g. identity_document, certificate; \`${PACKAGE_KIND}\` for a course package`,
      }),
      mime: Type.String({ description: `${UPLOAD_MIMES.join(', ')}; for a course package ${PACKAGE_MIMES.join(' or ')}` }),
      size: Type.Integer({ minimum: 1, description: 'The exact size of the file in bytes' }),
      filename: Type.String({ minLength: 1, maxLength: 255 }),
    },
    {
      title: 'UploadIntent',
      examples: [{ kind: 'identity_document', mime: 'application/pdf', size: 48213, filename: 'passport.pdf' }],
      if: { properties: { kind: { const: PACKAGE_KIND } }, required: ['kind'] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, never awaited
      then: { properties: { ...NAMED, mime: { enum: [...PACKAGE_MIMES] }, size: { maximum: packageMaxBytes } } },
      else: { properties: { ...NAMED, mime: { enum: [...UPLOAD_MIMES] }, size: { maximum: maxBytes } } },
    },
  )
export type UploadIntent = Static<ReturnType<typeof UploadIntent>>

export const PresignedUpload = Type.Object(
  {
    uploadId: Uuid,
    presignedPost: Type.Object({
      url: Type.String({ description: 'POST multipart form data here: every field of `fields`, then `file`' }),
      fields: Type.Record(Type.String(), Type.String()),
    }),
  },
  {
    title: 'PresignedUpload',
    examples: [
      {
        uploadId: '0190a000-0000-7000-8000-000000000a07',
        presignedPost: {
          url: 'https://seaworthy.example.com/api/v1/shared/uploads/target',
          fields: {
            key: 'incoming/0190a000-0000-7000-8000-000000000a07',
            'Content-Type': 'application/pdf',
            policy: 'eyJleHBpcmF0aW9uIjoi…',
            'x-seaworthy-signature': '5d41402abc4b2a76…',
          },
        },
      },
    ],
  },
)

export const Upload = Type.Object(
  {
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
  },
  {
    title: 'Upload',
    examples: [
      {
        id: '0190a000-0000-7000-8000-000000000a07',
        status: 'ready',
        kind: 'identity_document',
        originalFilename: 'passport.pdf',
        sizeBytes: 48213,
        createdAt: '2026-06-15T08:30:00.000Z',
        downloadUrl: 'https://seaworthy.example.com/api/v1/shared/uploads/object?key=…&signature=…',
        derivatives: [],
        width: null,
        height: null,
        pageCount: 1,
        threatName: null,
      },
    ],
  },
)
export type Upload = Static<typeof Upload>

export const UploadParams = IdParams('upload_id')

export const DownloadQuery = Type.Object({
  key: Type.String(),
  expires: Type.Integer(),
  type: Type.String(),
  filename: Type.String(),
  signature: Type.String(),
})

const Bytes = Type.Unsafe<unknown>({ type: 'string', format: 'binary' })

/** The signed download's answer: the file's bytes, with the type it was uploaded as. */
export const FileBytes = {
  description: "The file's bytes",
  content: Object.fromEntries(['application/octet-stream', ...UPLOAD_MIMES, ...PACKAGE_MIMES].map((type) => [type, { schema: Bytes }])),
}

/**
 * The presigned POST target's form: every field the intent's `presignedPost.fields` lists, then `file`.
 * Documentation only: the handler reads the form as a stream and checks it against the signed policy.
 */
export const UploadForm = {
  content: {
    'multipart/form-data': {
      schema: Type.Object(
        {
          key: Type.String(),
          'Content-Type': Type.String(),
          policy: Type.String(),
          [SIGNATURE_FIELD]: Type.String(),
          file: Bytes,
        },
        { additionalProperties: Type.String(), description: 'Fields in the order given, `file` last' },
      ),
    },
  },
}
