import Type, { type Static } from 'typebox'
import { VERIFICATION_STATUSES, VERIFICATION_TARGETS } from '../../db/schema.js'
import { DateTime, ListQuery, Nullable, Page, Uuid } from '../../lib/schemas.js'

export const VerificationStatus = Type.Enum(VERIFICATION_STATUSES)
export const VerificationTargetType = Type.Enum(VERIFICATION_TARGETS)

export const Verification = Type.Object(
  {
    targetType: VerificationTargetType,
    targetId: Uuid,
    status: VerificationStatus,
    rejectionReason: Nullable(Type.String()),
    reviewedAt: Nullable(DateTime),
  },
  { title: 'Verification' },
)
export type Verification = Static<typeof Verification>

export const RejectBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 1000 }) })
export type RejectBody = Static<typeof RejectBody>

export const ProfileState = Type.Enum(['approved', 'in_review', 'action_needed', 'incomplete'])
export type ProfileState = Static<typeof ProfileState>

export const ProfileVerification = Type.Object({ state: ProfileState, items: Type.Array(Verification) }, { title: 'ProfileVerification' })

export const ReviewQueueItem = Type.Object(
  {
    targetType: VerificationTargetType,
    targetId: Uuid,
    userId: Uuid,
    status: VerificationStatus,
    submittedAt: Nullable(DateTime),
    rejectionReason: Nullable(Type.String()),
    reviewedAt: Nullable(DateTime),
  },
  { title: 'ReviewQueueItem' },
)
export type ReviewQueueItem = Static<typeof ReviewQueueItem>

export const ReviewQueueQuery = Type.Object({
  ...ListQuery.properties,
  status: Type.Enum(VERIFICATION_STATUSES, { default: 'pending' }),
})
export type ReviewQueueQuery = Static<typeof ReviewQueueQuery>

export const ReviewQueuePage = Page(ReviewQueueItem)
