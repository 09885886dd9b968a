import Type, { type Static, type TObject, type TSchema } from 'typebox'
import { type DB, type ExpiringRecord, VERIFICATION_STATUSES, VERIFICATION_TARGETS, type VerificationTarget } from '../../../db/schema.js'
import type { EventType } from '../../../lib/events.js'
import { DateString, DateTime, IdParams, Nullable, Uuid } from '../../../lib/schemas.js'

// The schemas every kind of reviewed crew record is written with: its fields, its verification, and
// the descriptor (`RecordKind`) that crew/record-kinds/ declares each kind of expiring record as.

export const Notes = Nullable(Type.String({ maxLength: 5000 }))
/** Company, position, ship type, person names (DECISIONS §9). */
export const Text300 = Type.String({ minLength: 1, maxLength: 300 })

export const VerificationStatus = Type.Enum(VERIFICATION_STATUSES)
export const VerificationTargetType = Type.Enum(VERIFICATION_TARGETS)

/** A record's verification, as its responses embed it and the review moves answer with it. */
export const Verification = Type.Object(
  {
    targetType: VerificationTargetType,
    targetId: Uuid,
    status: VerificationStatus,
    rejectionReason: Nullable(Type.String()),
    reviewedAt: Nullable(DateTime),
  },
  {
    examples: [
      {
        targetType: 'identity_document',
        targetId: '0190a000-0000-7000-8000-000000000a09',
        status: 'pending',
        rejectionReason: null,
        reviewedAt: null,
      },
    ],
    title: 'Verification',
  },
)
export type Verification = Static<typeof Verification>

export const RejectBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 1000 }) },
  { title: 'RejectBody', examples: [{ reason: 'The scan is unreadable; please upload it again' }] },
)

// A record's wire fields, each declared once with its column and its TypeBox types; its request and
// response properties and its wire-field → column maps (src/lib/columns.ts) are read off the list, so a
// field cannot be in one and missing from the other. The list's order is the schemas' property order.

/** A wire field: its column (none for one computed when read) and its type in requests (none for one they never set) and responses. */
export interface Field {
  column?: string
  input?: TSchema
  output: TSchema
}
type Fields = Readonly<Record<string, Field>>
type Settable = { column: string; input: TSchema }

/** A field requests set: `input` as sent, `output` as responses show it where that differs (a format or length checked on input only). */
export const field = <const C extends string>(column: C, input: TSchema, output: TSchema = input) => ({ column, input, output })
/** A field the system stores and responses show, never a request. */
export const systemField = <const C extends string>(column: C, output: TSchema) => ({ column, output })
/** A field responses show, computed from the row when it is read. */
const computedField = (output: TSchema): Field => ({ output })

const entries = (fields: Fields, keep: (field: Field) => boolean) => Object.entries(fields).filter(([, field]) => keep(field))
const settable = (field: Field) => field.input !== undefined

type RequestColumns<F extends Fields> = { readonly [K in keyof F as F[K] extends Settable ? K : never]: F[K]['column'] }
type SystemColumns<F extends Fields> = {
  readonly [K in keyof F as F[K] extends Settable ? never : F[K]['column'] extends string ? K : never]: F[K]['column']
}

/** The fields a request may set, wire name → column. */
const requestColumns = <const F extends Fields>(fields: F) =>
  Object.fromEntries(entries(fields, settable).map(([wire, field]) => [wire, field.column])) as RequestColumns<F>

/** The stored fields only the system sets, wire name → column. */
const systemColumns = <const F extends Fields>(fields: F) =>
  Object.fromEntries(
    entries(fields, (field) => !settable(field) && field.column !== undefined).map(([wire, field]) => [wire, field.column]),
  ) as SystemColumns<F>

/** A request's properties: every settable field, each optional (a PATCH sends only what changes). */
const requestProperties = (fields: Fields) =>
  Object.fromEntries(entries(fields, settable).map(([wire, field]) => [wire, Type.Optional(field.input as TSchema)]))

/** A response's properties: every field. */
const responseProperties = (fields: Fields) => Object.fromEntries(Object.entries(fields).map(([wire, field]) => [wire, field.output]))

export const ExpiryStatus = Type.Enum(['valid', 'expiring_soon', 'expired'], { title: 'DocumentExpiryStatus' })
export type ExpiryStatus = Static<typeof ExpiryStatus>
const ListDate = (description: string) => Type.Optional(Type.String({ format: 'date', examples: ['2026-06-15'], description }))
/** A user's records of one kind (DECISIONS §3, §10). */
export const ExpiryListQuery = Type.Object({
  expiry_status: Type.Optional(ExpiryStatus),
  as_of: ListDate('The date the status is computed against (default: today, UTC)'),
  expires_before: ListDate('Only records whose expiryDate is before this date (records without one are left out)'),
})
export type ExpiryListQuery = Static<typeof ExpiryListQuery>

/** The fields every kind has, after its own in requests and responses (`recordKind`). */
const EXPIRING_FIELDS = {
  issueDate: field('issue_date', Nullable(DateString)),
  expiryDate: field('expiry_date', Nullable(DateString)),
  uploadId: field('upload_id', Nullable(Uuid)),
  uploadedByUserId: systemField('uploaded_by_user_id', Uuid),
  status: computedField(ExpiryStatus),
  verification: computedField(Nullable(Verification)),
  notes: field('notes', Notes, Nullable(Type.String())),
  createdAt: computedField(DateTime),
  updatedAt: computedField(DateTime),
}

/** Ids are stored lower-case: an upload id re-sent in another case is no change. */
export const storedUploadId = (uploadId: string | null | undefined) => (uploadId ? uploadId.toLowerCase() : uploadId)

/** The shared request fields' columns (src/lib/columns.ts). */
export const EXPIRING_COLUMNS = requestColumns(EXPIRING_FIELDS)
/** The expiry date may not be before the issue date (DECISIONS §3). */
export const EXPIRY_DATE_ORDER = [['issueDate', 'expiryDate']] as const

/** The tables of expiring records: every table with the columns they share (`ExpiringRecord`). */
export type ExpiringTable = { [T in keyof DB]: DB[T] extends ExpiringRecord ? T : never }[keyof DB]

/**
 * What tells one kind of expiring crew record (crew/record-kinds/) from another: its table and names,
 * its type field (set on create only) and its own fields. Everything else — routes, the create and edit
 * rules, the row-to-wire mapping and the SQL that returns the wire JSON for responses and events — is
 * written once in this folder, over this descriptor. A new field is one `field(…)` in the kind's `fields`.
 */
export interface RecordKind {
  table: ExpiringTable
  /** The verification's and the events' target type. */
  target: Exclude<VerificationTarget, 'experience'>
  /** As errors name it: "Identity document not found". */
  label: string
  created: EventType
  /** The kind's type (documentType, certificateType): required on create, a 422 on PATCH. */
  typeField: { wire: string; column: string }
  /** The column that names a record beside its type in review lists (its number). */
  numberColumn: string
  /** The fields a create or PATCH may set, wire name → column, its type aside. */
  columns: Readonly<Record<string, string>>
  /** Fields the system sets and responses show, never a request (e.g. `uploadedByUserId`), wire name → column. */
  systemColumns: Readonly<Record<string, string>>
  /** How a request's values are stored, where that differs from how they are sent (e.g. upper case). */
  stored?: (body: Record<string, unknown>) => Record<string, unknown>
  /** Where its routes are mounted, as the contract writes them: a user's records, and one record with its review. */
  paths: { user: string; item: string }
  /** The kind's wire schemas and the names its routes are documented under. */
  api: {
    record: TObject
    create: TObject
    update: TObject
    params: TObject
    /** The path parameter naming one record, e.g. `document_id`. */
    idParam: string
    /** Operation ids and schema titles: `create${singular}`, `list${plural}`, `${singular}Create`, … */
    singular: string
    plural: string
    /** Summaries and descriptions: "Add an identity document", "another organization's document is 404". */
    phrase: { one: string; many: string; short: string }
    tag: string
  }
}

/** A kind as it is declared: each of its fields once, its schemas and column maps read off them by `recordKind`. */
export interface RecordKindSpec extends Pick<RecordKind, 'table' | 'target' | 'label' | 'created' | 'numberColumn' | 'stored' | 'paths'> {
  typeField: RecordKind['typeField'] & { type: TSchema }
  /** The kind's own fields, before those every expiring record has (`EXPIRING_FIELDS`). */
  fields: Readonly<Record<string, Field>>
  /** Fields only the system sets, after the shared ones (certificates' `source`). */
  systemFields?: Readonly<Record<string, Field>>
  api: Omit<RecordKind['api'], 'record' | 'create' | 'update' | 'params'> & {
    /** One example each of a record, a create body and a PATCH body. */
    examples: { record: object; create: object; update: object }
  }
}

export function recordKind({ typeField, fields: own, systemFields, api, ...kind }: RecordKindSpec): RecordKind {
  const { examples, ...names } = api
  const fields = { ...own, ...EXPIRING_FIELDS, ...systemFields }
  const type = { [typeField.wire]: typeField.type }
  const title = api.singular
  return {
    ...kind,
    typeField: { wire: typeField.wire, column: typeField.column },
    columns: requestColumns(fields),
    systemColumns: systemColumns(fields),
    api: {
      ...names,
      record: Type.Object({ id: Uuid, ...type, ...responseProperties(fields) }, { examples: [examples.record], title }),
      create: Type.Object({ ...type, ...requestProperties(fields) }, { examples: [examples.create], title: `${title}Create` }),
      update: Type.Object(requestProperties(fields), {
        examples: [examples.update],
        title: `${title}Update`,
        description: `${typeField.wire} cannot be changed (422)`,
      }),
      params: IdParams(api.idParam),
    },
  }
}
