import type { TObject } from 'typebox'
import type { EventType } from '../../lib/events.js'
import type { ExpiringTable } from './crew-records.queries.js'

/**
 * What tells one kind of expiring crew record (identity documents, certificates) from the other: its
 * table and names, its type field (set on create only) and the fields a request may set, with their
 * columns. Everything else — routes, the create and edit rules, the row-to-wire mapping and the SQL
 * that returns the wire JSON for responses and events — is written once, over this descriptor
 * (`expiring-records.routes.ts`, `.service.ts`, `.queries.ts`). A new field is a column here and a
 * property in the kind's TypeBox schemas.
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
  /** Fields the system sets and responses show, never a request (certificates' `source`), wire name → column. */
  systemColumns?: Readonly<Record<string, string>>
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
    /** Operation ids: `create${singular}`, `list${plural}`, … */
    singular: string
    plural: string
    /** Summaries and descriptions: "Add an identity document", "another organization's document is 404". */
    phrase: { one: string; many: string; short: string }
    tag: string
  }
}

export const targetOf = (kind: ExpiringKind, id: string) => ({ type: kind.target, id })
