import Type, { type Static } from 'typebox'
import { CERTIFICATE_TYPES } from '../../db/schema.js'
import { IdParams, Nullable, Uuid } from '../../lib/schemas.js'
import { EXPIRING_COLUMNS, ExpiringInput, ExpiringOutput } from '../crew-records/crew-records.schemas.js'

const CertificateType = Type.Enum(CERTIFICATE_TYPES)

export const Certificate = Type.Object(
  {
    id: Uuid,
    certificateType: CertificateType,
    certificateNumber: Nullable(Type.String()),
    issuingAuthority: Nullable(Type.String()),
    ...ExpiringOutput,
  },
  { title: 'Certificate' },
)
export type Certificate = Static<typeof Certificate>

const CertificateInput = {
  certificateNumber: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  issuingAuthority: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
  ...ExpiringInput,
}

export const CertificateCreate = Type.Object({ certificateType: CertificateType, ...CertificateInput }, { title: 'CertificateCreate' })
export type CertificateCreate = Static<typeof CertificateCreate>
export const CertificateUpdate = Type.Object(CertificateInput, {
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
