import Type, { type Static } from 'typebox'
import { CERTIFICATE_SOURCES, CERTIFICATE_TYPES } from '../../db/schema.js'
import { IdParams, Nullable, Uuid } from '../../lib/schemas.js'
import { EXPIRING_COLUMNS, ExpiringInput, ExpiringOutput } from '../crew-records/crew-records.schemas.js'
import type { ExpiringKind } from '../crew-records/expiring-records.js'

export const CertificateType = Type.Enum(CERTIFICATE_TYPES)

export const Certificate = Type.Object(
  {
    id: Uuid,
    certificateType: CertificateType,
    certificateNumber: Nullable(Type.String()),
    issuingAuthority: Nullable(Type.String()),
    ...ExpiringOutput,
    source: Type.Enum(CERTIFICATE_SOURCES, {
      description: '`course` when issued by passing a course with a certificate template (DECISIONS §14); set by the system',
    }),
    registrationId: Nullable(Uuid),
  },
  {
    examples: [
      {
        id: '0190a000-0000-7000-8000-000000000a0a',
        certificateType: 'stcw_basic_safety',
        certificateNumber: 'STCW-2231',
        issuingAuthority: 'Norwegian Maritime Authority',
        issueDate: '2024-03-01',
        expiryDate: '2034-02-28',
        uploadId: '0190a000-0000-7000-8000-000000000a07',
        uploadedByUserId: '0190a000-0000-7000-8000-000000000a01',
        status: 'valid',
        verification: {
          targetType: 'certificate',
          targetId: '0190a000-0000-7000-8000-000000000a0a',
          status: 'pending',
          rejectionReason: null,
          reviewedAt: null,
        },
        notes: null,
        source: 'manual',
        registrationId: null,
        createdAt: '2026-06-15T08:30:00.000Z',
        updatedAt: '2026-06-15T08:30:00.000Z',
      },
    ],
    title: 'Certificate',
  },
)
export type Certificate = Static<typeof Certificate>

const CertificateInput = {
  certificateNumber: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  issuingAuthority: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
  ...ExpiringInput,
}

export const CertificateCreate = Type.Object(
  { certificateType: CertificateType, ...CertificateInput },
  {
    examples: [
      {
        certificateType: 'stcw_basic_safety',
        certificateNumber: 'STCW-2231',
        issuingAuthority: 'Norwegian Maritime Authority',
        issueDate: '2024-03-01',
        expiryDate: '2029-02-28',
      },
    ],
    title: 'CertificateCreate',
  },
)
export type CertificateCreate = Static<typeof CertificateCreate>
export const CertificateUpdate = Type.Object(CertificateInput, {
  examples: [{ certificateNumber: 'STCW-2232' }],
  title: 'CertificateUpdate',
  description: 'certificateType cannot be changed (422)',
})
export type CertificateUpdate = Static<typeof CertificateUpdate>

/** The fields a PATCH may set, and their columns (src/lib/columns.ts); certificateType is set on create only. */
export const CERTIFICATE_COLUMNS = {
  certificateNumber: 'certificate_number',
  issuingAuthority: 'issuing_authority',
  ...EXPIRING_COLUMNS,
} as const

export const CertificateParams = IdParams('certificate_id')

/** Certificates as one kind of expiring record: everything else is written once in crew-records/. */
export const CERTIFICATES: ExpiringKind = {
  table: 'certificates',
  target: 'certificate',
  label: 'Certificate',
  created: 'certificate.created',
  typeField: { wire: 'certificateType', column: 'certificate_type' },
  columns: CERTIFICATE_COLUMNS,
  systemColumns: { source: 'source', registrationId: 'registration_id' },
  api: {
    record: Certificate,
    create: CertificateCreate,
    update: CertificateUpdate,
    params: CertificateParams,
    idParam: 'certificate_id',
    singular: 'Certificate',
    plural: 'Certificates',
    phrase: { one: 'a certificate', many: 'certificates', short: 'certificate' },
    tag: 'certificates',
  },
}
