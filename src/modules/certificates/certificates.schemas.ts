import Type from 'typebox'
import { defineExpiringKind } from '../verifications/expiring.schemas.js'

const CertificateType = Type.Enum([
  'stcw_basic_safety',
  'deck_certificate',
  'gmdss_endorsement',
  'oil_tanker_endorsement',
  'medical',
  'flag_certificate',
  'other',
])

export const certificates = defineExpiringKind({
  table: 'certificates',
  target: 'certificate',
  label: 'Certificate',
  tag: 'certificates',
  path: 'certificates',
  param: 'certificate_id',
  title: 'Certificate',
  typeField: { wire: 'certificateType', column: 'certificate_type', input: CertificateType },
  fields: [
    { wire: 'certificateNumber', column: 'certificate_number', input: Type.String({ maxLength: 64 }) },
    { wire: 'issuingAuthority', column: 'issuing_authority', input: Type.String({ maxLength: 300 }) },
  ],
})
