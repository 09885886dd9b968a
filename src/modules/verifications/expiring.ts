import type { TSchema } from 'typebox'
import { iso } from '../../lib/dates.js'
import type { RecordKind } from './records.js'
import { embeddedVerification, type VerificationJoin } from './records.queries.js'

// Identity documents and certificates are the same record with different names for three fields:
// an ExpiringKind says which, and everything else about them is written once.

/** A wire field and its column; `normalize` applies to string values on the way in. */
export interface Field {
  wire: string
  column: string
  normalize?: (value: string) => string
}

export interface ExpiringKind extends RecordKind {
  table: 'identity_documents' | 'certificates'
  /** documentType / certificateType: set on create, immutable after. */
  typeField: Field
  /** The number and the issuer. */
  fields: Field[]
  schemas: { Item: TSchema; Create: TSchema; Update: TSchema }
}

const SHARED_FIELDS: Field[] = [
  { wire: 'issueDate', column: 'issue_date' },
  { wire: 'expiryDate', column: 'expiry_date' },
  // Compared with the stored (lower-case) id to tell a real change from a re-sent value.
  { wire: 'uploadId', column: 'upload_id', normalize: (value) => value.toLowerCase() },
  { wire: 'notes', column: 'notes' },
]

/** The fields a PATCH may change. */
export const editableFields = (kind: ExpiringKind) => [...kind.fields, ...SHARED_FIELDS]
export const allFields = (kind: ExpiringKind) => [kind.typeField, ...editableFields(kind)]

/** The columns a request sets: omitted fields stay as they are, null clears. */
export function columnsOf(fields: Field[], body: Record<string, unknown>): Record<string, unknown> {
  const columns: Record<string, unknown> = {}
  for (const { wire, column, normalize } of fields) {
    const value = body[wire]
    if (value !== undefined) columns[column] = normalize && typeof value === 'string' ? normalize(value) : value
  }
  return columns
}

export type ExpiringRow = VerificationJoin &
  Record<string, unknown> & { id: string; uploaded_by_user_id: string; expiry_status: string; created_at: Date; updated_at: Date }

export function toExpiringItem(kind: ExpiringKind, row: ExpiringRow): Record<string, unknown> {
  return {
    id: row.id,
    ...Object.fromEntries(allFields(kind).map(({ wire, column }) => [wire, row[column]])),
    uploadedByUserId: row.uploaded_by_user_id,
    status: row.expiry_status,
    verification: embeddedVerification(row),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  }
}
