import Type, { type Static, type TSchema } from 'typebox'
import { DateString, DateTime, Nullable, Uuid } from '../../lib/schemas.js'
import type { ExpiringKind, Field } from './expiring.js'
import type { RecordKind } from './records.js'
import { Notes } from './records.schemas.js'
import { Verification } from './verifications.schemas.js'

export const ExpiryStatus = Type.Enum(['valid', 'expiring_soon', 'expired'], { title: 'DocumentExpiryStatus' })
export type ExpiryStatus = Static<typeof ExpiryStatus>

export const ExpiringListQuery = Type.Object({ expiry_status: Type.Optional(ExpiryStatus) })

/** A kind's own field with the schema of its request value. */
export interface FieldSpec extends Field {
  input: TSchema
}

export interface ExpiringSpec extends RecordKind {
  table: ExpiringKind['table']
  /** The response's schema title; the request bodies are `<title>Create` and `<title>Update`. */
  title: string
  typeField: FieldSpec
  fields: FieldSpec[]
}

/** One field list drives a kind's three schemas and its column mapping. */
export function defineExpiringKind(spec: ExpiringSpec): ExpiringKind {
  const { typeField, fields, title } = spec
  const inputs = Object.fromEntries(fields.map((f) => [f.wire, Type.Optional(Nullable(f.input))]))
  const sharedInputs = {
    issueDate: Type.Optional(Nullable(DateString)),
    expiryDate: Type.Optional(Nullable(DateString)),
    uploadId: Type.Optional(Nullable(Uuid)),
    notes: Type.Optional(Notes),
  }
  const Item = Type.Object(
    {
      id: Uuid,
      [typeField.wire]: typeField.input,
      ...Object.fromEntries(fields.map((f) => [f.wire, Nullable(Type.String())])),
      issueDate: Nullable(DateString),
      expiryDate: Nullable(DateString),
      uploadId: Nullable(Uuid),
      uploadedByUserId: Uuid,
      status: ExpiryStatus,
      verification: Nullable(Verification),
      notes: Nullable(Type.String()),
      createdAt: DateTime,
      updatedAt: DateTime,
    },
    { title },
  )
  const Create = Type.Object({ [typeField.wire]: typeField.input, ...inputs, ...sharedInputs }, { title: `${title}Create` })
  const Update = Type.Object(
    { ...inputs, ...sharedInputs },
    { title: `${title}Update`, description: `${typeField.wire} cannot be changed (422)` },
  )
  return { ...spec, schemas: { Item, Create, Update } }
}
