import Type, { type Static } from 'typebox'
import { VERIFICATION_STATUSES } from '../../../db/schema.js'
import { DateTime, ListQuery, Nullable, Page, Uuid } from '../../../lib/schemas.js'
import { Verification, VerificationStatus, VerificationTargetType } from '../reviewed-records/reviewed-records.schemas.js'

/** The names a list of reviews shows beside the ids (added fields: older clients read the rest unchanged). */
const RecordNameFields = {
  recordType: Nullable(Type.String({ description: "The document's or certificate's type; null for an experience row" })),
  recordNumber: Nullable(Type.String({ description: "The document's or certificate's number; an experience row's company" })),
  reviewerName: Nullable(Type.String({ description: 'Who verified or rejected it, by name' })),
}

/** A profile's review item, with the record and the reviewer by name. */
export const NamedVerification = Type.Object(
  { ...Verification.properties, ...RecordNameFields },
  {
    title: 'NamedVerification',
    examples: [
      {
        targetType: 'identity_document',
        targetId: '0190a000-0000-7000-8000-000000000a09',
        status: 'verified',
        rejectionReason: null,
        reviewedAt: '2026-06-15T08:30:00.000Z',
        recordType: 'passport',
        recordNumber: 'P1234567',
        reviewerName: 'Olav Hansen',
      },
    ],
  },
)
export type NamedVerification = Static<typeof NamedVerification>

export const ProfileState = Type.Enum(['approved', 'in_review', 'action_needed', 'incomplete'])
export type ProfileState = Static<typeof ProfileState>

export const ProfileVerification = Type.Object(
  { state: ProfileState, items: Type.Array(NamedVerification) },
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
            recordType: 'passport',
            recordNumber: 'P1234567',
            reviewerName: null,
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
    userName: Type.String({ description: 'The person whose record it is, by name' }),
    ...RecordNameFields,
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
        userName: 'Ana Silva',
        recordType: 'passport',
        recordNumber: 'P1234567',
        reviewerName: null,
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
