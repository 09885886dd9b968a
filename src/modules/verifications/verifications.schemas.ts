import Type, { type Static } from 'typebox'
import { DateTime, IdParams, ListQuery, Nullable, Page, Uuid } from '../../lib/schemas.js'

const STATUSES = ['not_submitted', 'pending', 'verified', 'rejected'] as const
export const VerificationStatus = Type.Enum(STATUSES)
export const VerificationTargetType = Type.Enum(['identity_document', 'certificate', 'experience'])

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
  status: Type.Enum(STATUSES, { default: 'pending' }),
})
export type ReviewQueueQuery = Static<typeof ReviewQueueQuery>

export const ReviewQueuePage = Page(ReviewQueueItem)
export const UserParams = IdParams('user_id')
