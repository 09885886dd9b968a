import Type, { type TObject, type TSchema } from 'typebox'
import type { EventType } from '../../../lib/events.js'
import { IdParams, Uuid } from '../../../lib/schemas.js'
import type { ExpiringTable } from './crew-records.queries.js'
import { EXPIRING_FIELDS } from './crew-records.schemas.js'
import { type Field, requestColumns, requestProperties, responseProperties, systemColumns } from './record-fields.js'

/**
 * What tells one kind of expiring crew record (identity documents, certificates) from the other: its
 * table and names, its type field (set on create only) and its own fields. Everything else — routes, the
 * create and edit rules, the row-to-wire mapping and the SQL that returns the wire JSON for responses and
 * events — is written once, over this descriptor (`expiring-records.routes.ts`, `.service.ts`,
 * `.queries.ts`). A new field is one `field(…)` in the kind's `fields` (`expiringKind`).
 */
export interface ExpiringKind {
  table: ExpiringTable
  /** The verification's and the events' target type. */
  target: 'identity_document' | 'certificate'
  /** As errors name it: "Identity document not found". */
  label: string
  created: EventType
  /** The kind's type (documentType, certificateType): required on create, a 422 on PATCH. */
  typeField: { wire: string; column: string }
  /** The fields a create or PATCH may set, wire name → column, its type aside. */
  columns: Readonly<Record<string, string>>
  /** Fields the system sets and responses show, never a request (e.g. `uploadedByUserId`), wire name → column. */
  systemColumns: Readonly<Record<string, string>>
  /** How a request's values are stored, where that differs from how they are sent (e.g. upper case). */
  stored?: (body: Record<string, unknown>) => Record<string, unknown>
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

/** A kind as it is declared: each of its fields once, its schemas and column maps read off them by `expiringKind`. */
export interface ExpiringKindSpec extends Pick<ExpiringKind, 'table' | 'target' | 'label' | 'created' | 'stored'> {
  typeField: ExpiringKind['typeField'] & { type: TSchema }
  /** The kind's own fields, before those every expiring record has (`EXPIRING_FIELDS`). */
  fields: Readonly<Record<string, Field>>
  /** Fields only the system sets, after the shared ones (certificates' `source`). */
  systemFields?: Readonly<Record<string, Field>>
  api: Omit<ExpiringKind['api'], 'record' | 'create' | 'update' | 'params'> & {
    /** One example each of a record, a create body and a PATCH body. */
    examples: { record: object; create: object; update: object }
  }
}

export function expiringKind({ typeField, fields: own, systemFields, api, ...kind }: ExpiringKindSpec): ExpiringKind {
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

export const targetOf = (kind: ExpiringKind, id: string) => ({ type: kind.target, id })
