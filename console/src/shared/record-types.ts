import type { components } from '../../../client/index.js'

export type DocumentType = components['schemas']['IdentityDocument']['documentType']
export type CertificateType = components['schemas']['Certificate']['certificateType']

export const DOCUMENT_TYPES: DocumentType[] = ['passport', 'us_visa', 'seaman_book', 'national_id']
export const CERTIFICATE_TYPES: CertificateType[] = [
  'stcw_basic_safety',
  'deck_certificate',
  'gmdss_endorsement',
  'oil_tanker_endorsement',
  'medical',
  'flag_certificate',
  'other',
]

export type ShipType = NonNullable<components['schemas']['Ship']['shipType']>
export const SHIP_TYPES: ShipType[] = [
  'bulk_carrier',
  'oil_tanker',
  'chemical_tanker',
  'gas_tanker',
  'container',
  'general_cargo',
  'ro_ro',
  'passenger',
  'offshore',
  'tug',
  'fishing',
  'other',
]
