import Type, { type Static } from 'typebox'
import { DateString, DateTime, Nullable, Uuid } from '../../../lib/schemas.js'
import { Verification } from '../verifications/verifications.schemas.js'
import { computedField, field, requestColumns, systemField } from './record-fields.js'

// Schema pieces a user's crew records share: identity documents, certificates, experience, next of kin.

export const Notes = Nullable(Type.String({ maxLength: 5000 }))
/** Company, position, ship type, person names (DECISIONS §9). */
export const Text300 = Type.String({ minLength: 1, maxLength: 300 })

export const ExpiryStatus = Type.Enum(['valid', 'expiring_soon', 'expired'], { title: 'DocumentExpiryStatus' })
export type ExpiryStatus = Static<typeof ExpiryStatus>
const ListDate = (description: string) => Type.Optional(Type.String({ format: 'date', examples: ['2026-06-15'], description }))
/** A user's documents or certificates (DECISIONS §3, §10). */
export const ExpiryListQuery = Type.Object({
  expiry_status: Type.Optional(ExpiryStatus),
  as_of: ListDate('The date the status is computed against (default: today, UTC)'),
  expires_before: ListDate('Only records whose expiryDate is before this date (records without one are left out)'),
})
export type ExpiryListQuery = Static<typeof ExpiryListQuery>

// Identity documents and certificates are the same record with their own type, number and issuer.
// The fields they share follow their own in requests and responses (`expiringKind`).

export const EXPIRING_FIELDS = {
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
