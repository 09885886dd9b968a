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
export type RejectBody = Static<typeof RejectBody>

export const ProfileState = Type.Enum(['approved', 'in_review', 'action_needed', 'incomplete'])
export type ProfileState = Static<typeof ProfileState>

export const ProfileVerification = Type.Object(
  { state: ProfileState, items: Type.Array(Verification) },
  {
    examples: [
      {
        state: 'in_review',
        items: [
          {
            targetType: 'identity_document',
            targetId: '0190a000-0000-7000-8000-000000000a09',
            status: 'pending',
            rejectionReason: null,
            reviewedAt: null,
          },
        ],
      },
    ],
    title: 'ProfileVerification',
  },
)

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
  {
    examples: [
      {
        targetType: 'identity_document',
        targetId: '0190a000-0000-7000-8000-000000000a09',
        status: 'pending',
        rejectionReason: null,
        reviewedAt: null,
        userId: '0190a000-0000-7000-8000-000000000a01',
        submittedAt: '2026-06-15T08:30:00.000Z',
      },
    ],
    title: 'ReviewQueueItem',
  },
)
export type ReviewQueueItem = Static<typeof ReviewQueueItem>

export const ReviewQueueQuery = Type.Object({
  ...ListQuery.properties,
  status: Type.Enum(VERIFICATION_STATUSES, { default: 'pending' }),
})
export type ReviewQueueQuery = Static<typeof ReviewQueueQuery>

export const ReviewQueuePage = Page(ReviewQueueItem)
