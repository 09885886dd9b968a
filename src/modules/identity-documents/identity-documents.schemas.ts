import Type from 'typebox'
import './country.js'
import { defineExpiringKind } from '../verifications/expiring.schemas.js'

export const identityDocuments = defineExpiringKind({
  table: 'identity_documents',
  target: 'identity_document',
  label: 'Identity document',
  tag: 'identity documents',
  path: 'identity-documents',
  param: 'document_id',
  title: 'IdentityDocument',
  typeField: { wire: 'documentType', column: 'document_type', input: Type.Enum(['passport', 'us_visa', 'seaman_book', 'national_id']) },
  fields: [
    { wire: 'documentNumber', column: 'document_number', input: Type.String({ maxLength: 64 }) },
    {
      wire: 'issuingCountry',
      column: 'issuing_country',
      input: Type.String({ format: 'country-code', description: 'ISO 3166-1 alpha-2 or alpha-3, any case; stored upper-case' }),
      normalize: (value) => value.toUpperCase(),
    },
  ],
})
