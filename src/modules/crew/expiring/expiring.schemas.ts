import Type, { type Static } from 'typebox'
import { RECORD_TYPES } from '../../../db/schema.js'
import { ExportFormat } from '../../../lib/csv.js'
import { DateString, ListQuery, Page, Uuid } from '../../../lib/schemas.js'
import { registerFormat } from '../../../lib/validation.js'
import { RECORD_KINDS } from '../record-kinds/record-kinds.js'
// Registers the `uuid-list` format of ship_id, shared with the assignments list.
import '../assignments/assignments.schemas.js'

// DECISIONS §10: the fleet expiry list.

export const splitTypes = (value: string) => value.split(',').map((part) => part.trim())
registerFormat(
  'record-type-list',
  (value) => splitTypes(value).every((type) => (RECORD_TYPES as readonly string[]).includes(type)),
  `Input should be document or certificate types separated by commas: ${RECORD_TYPES.join(', ')}`,
)

export const ExpiringStatus = Type.Enum(['expiring_soon', 'expired'])

const { limit, cursor, include_count } = ListQuery.properties

export const ExpiringQuery = Type.Object({
  limit,
  cursor,
  include_count,
  as_of: Type.Optional(
    Type.String({ format: 'date', examples: ['2026-06-15'], description: 'The date to judge on (default: today, UTC)' }),
  ),
  within_days: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 3650,
      description: "expiring_soon means expiryDate ≤ as_of + within_days (default: each type's window)",
    }),
  ),
  status: Type.Optional(ExpiringStatus),
  type: Type.Optional(
    Type.String({ format: 'record-type-list', description: 'Document or certificate types, comma-separated (any of them)' }),
  ),
  ship_id: Type.Optional(
    Type.String({ format: 'uuid-list', description: 'Holders with an assignment active on as_of on one of these ships (comma-separated)' }),
  ),
  user_id: Type.Optional(Uuid),
  format: ExportFormat,
})
export type ExpiringQuery = Static<typeof ExpiringQuery>

export const ExpiringItem = Type.Object(
  {
    targetType: Type.Enum(RECORD_KINDS.map((kind) => kind.target)),
    targetId: Uuid,
    userId: Uuid,
    userName: Type.String(),
    type: Type.String({ description: 'The documentType or certificateType' }),
    expiryDate: DateString,
    status: ExpiringStatus,
    daysLeft: Type.Integer({ description: 'expiryDate − as_of, in days; negative when expired' }),
    verificationStatus: Type.Enum(['pending', 'verified'], { description: 'Rejected documents are not listed' }),
  },
  {
    title: 'ExpiringItem',
    examples: [
      {
        targetType: 'identity_document',
        targetId: '01935c1e-4c30-7f2e-8d4b-3e4f50617c8d',
        userId: '01935c1e-6a10-7d2e-8b4b-1d2e3f405a6b',
        userName: 'Maria Santos',
        type: 'passport',
        expiryDate: '2026-08-01',
        status: 'expiring_soon',
        daysLeft: 47,
        verificationStatus: 'verified',
      },
    ],
  },
)
export type ExpiringItem = Static<typeof ExpiringItem>
export const ExpiringPage = Page(ExpiringItem)
