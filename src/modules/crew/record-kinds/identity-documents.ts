import countries from 'i18n-iso-countries'
import Type from 'typebox'
import { DOCUMENT_TYPES } from '../../../db/schema.js'
import { Nullable } from '../../../lib/schemas.js'
import { registerFormat } from '../../../lib/validation.js'
import { field, recordKind } from '../reviewed-records/reviewed-records.schemas.js'

// ISO 3166-1 codes as the i18n-iso-countries package knows them; numeric codes are not accepted.
// The package also lists Kosovo's XK/XKK, which are user-assigned codes outside ISO 3166-1.
const NOT_ISO = new Set(['XK', 'XKK'])
const CODES = new Set(
  [...Object.keys(countries.getAlpha2Codes()), ...Object.keys(countries.getAlpha3Codes())].filter((code) => !NOT_ISO.has(code)),
)
registerFormat('country-code', (value) => CODES.has(value.toUpperCase()), 'Value is not an ISO 3166-1 alpha-2 or alpha-3 country code')

const IssuingCountry = Type.String({ format: 'country-code', description: 'ISO 3166-1 alpha-2 or alpha-3, any case; stored upper-case' })

/** Identity documents as one kind of expiring record: everything else is written once in reviewed-records/. */
export const IDENTITY_DOCUMENTS = recordKind({
  table: 'identity_documents',
  target: 'identity_document',
  label: 'Identity document',
  created: 'identity_document.created',
  paths: { user: '/api/v1/crew/users/:user_id/identity-documents', item: '/api/v1/crew/identity-documents' },
  numberColumn: 'document_number',
  typeField: { wire: 'documentType', column: 'document_type', type: Type.Enum(DOCUMENT_TYPES) },
  fields: {
    documentNumber: field('document_number', Nullable(Type.String({ maxLength: 64 })), Nullable(Type.String())),
    issuingCountry: field('issuing_country', Nullable(IssuingCountry), Nullable(Type.String())),
  },
  // The country is stored upper-case, whatever case it is sent in.
  stored: (body) => ({
    ...body,
    issuingCountry: typeof body.issuingCountry === 'string' ? body.issuingCountry.toUpperCase() : body.issuingCountry,
  }),
  api: {
    idParam: 'document_id',
    singular: 'IdentityDocument',
    plural: 'IdentityDocuments',
    phrase: { one: 'an identity document', many: 'identity documents', short: 'document' },
    tag: 'identity documents',
    examples: {
      record: {
        id: '0190a000-0000-7000-8000-000000000a09',
        documentType: 'passport',
        documentNumber: 'P1234567',
        issuingCountry: 'NO',
        issueDate: '2024-03-01',
        expiryDate: '2034-02-28',
        uploadId: '0190a000-0000-7000-8000-000000000a07',
        uploadedByUserId: '0190a000-0000-7000-8000-000000000a01',
        status: 'valid',
        verification: {
          targetType: 'identity_document',
          targetId: '0190a000-0000-7000-8000-000000000a09',
          status: 'pending',
          rejectionReason: null,
          reviewedAt: null,
        },
        notes: null,
        createdAt: '2026-06-15T08:30:00.000Z',
        updatedAt: '2026-06-15T08:30:00.000Z',
      },
      create: {
        documentType: 'passport',
        documentNumber: 'P1234567',
        issuingCountry: 'NO',
        issueDate: '2024-03-01',
        expiryDate: '2034-02-28',
        uploadId: '0190a000-0000-7000-8000-000000000a07',
      },
      update: { expiryDate: '2034-03-01' },
    },
  },
})
