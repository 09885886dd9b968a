// The document and certificate types of DECISIONS §3, for the modules that name types without
// owning the records (settings maps, requirements, the expiry list). A test keeps them equal to the
// enums of the identity-document and certificate schemas.

export const DOCUMENT_TYPES = ['passport', 'us_visa', 'seaman_book', 'national_id'] as const
export const CERTIFICATE_TYPES = [
  'stcw_basic_safety',
  'deck_certificate',
  'gmdss_endorsement',
  'oil_tanker_endorsement',
  'medical',
  'flag_certificate',
  'other',
] as const
export const RECORD_TYPES = [...DOCUMENT_TYPES, ...CERTIFICATE_TYPES]

export type DocumentType = (typeof DOCUMENT_TYPES)[number]
export type CertificateType = (typeof CERTIFICATE_TYPES)[number]
export type RecordType = DocumentType | CertificateType
