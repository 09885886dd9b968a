import Type from 'typebox'
import { CERTIFICATE_SOURCES, CERTIFICATE_TYPES } from '../../../db/schema.js'
import { Nullable, Uuid } from '../../../lib/schemas.js'
import { field, recordKind, systemField } from '../reviewed-records/reviewed-records.schemas.js'

export const CertificateType = Type.Enum(CERTIFICATE_TYPES)

/** Certificates as one kind of expiring record: everything else is written once in reviewed-records/. */
export const CERTIFICATES = recordKind({
  table: 'certificates',
  target: 'certificate',
  label: 'Certificate',
  created: 'certificate.created',
  paths: { user: '/api/v1/crew/users/:user_id/certificates', item: '/api/v1/crew/certificates' },
  numberColumn: 'certificate_number',
  typeField: { wire: 'certificateType', column: 'certificate_type', type: CertificateType },
  fields: {
    certificateNumber: field('certificate_number', Nullable(Type.String({ maxLength: 64 })), Nullable(Type.String())),
    issuingAuthority: field('issuing_authority', Nullable(Type.String({ maxLength: 300 })), Nullable(Type.String())),
  },
  systemFields: {
    source: systemField(
      'source',
      Type.Enum(CERTIFICATE_SOURCES, {
        description: '`course` when issued by passing a course with a certificate template (DECISIONS §14); set by the system',
      }),
    ),
    registrationId: systemField('registration_id', Nullable(Uuid)),
  },
  api: {
    idParam: 'certificate_id',
    singular: 'Certificate',
    plural: 'Certificates',
    phrase: { one: 'a certificate', many: 'certificates', short: 'certificate' },
    tag: 'certificates',
    examples: {
      record: {
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
      create: {
        certificateType: 'stcw_basic_safety',
        certificateNumber: 'STCW-2231',
        issuingAuthority: 'Norwegian Maritime Authority',
        issueDate: '2024-03-01',
        expiryDate: '2029-02-28',
      },
      update: { certificateNumber: 'STCW-2232' },
    },
  },
})
