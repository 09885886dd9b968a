import Type from 'typebox'
import './country.js'
import { DOCUMENT_TYPES } from '../../../db/schema.js'
import { Nullable } from '../../../lib/schemas.js'
import { expiringKind } from '../crew-records/expiring-records.js'
import { field } from '../crew-records/record-fields.js'

const IssuingCountry = Type.String({ format: 'country-code', description: 'ISO 3166-1 alpha-2 or alpha-3, any case; stored upper-case' })

/** Identity documents as one kind of expiring record: everything else is written once in crew-records/. */
export const IDENTITY_DOCUMENTS = expiringKind({
  table: 'identity_documents',
  target: 'identity_document',
  label: 'Identity document',
  created: 'identity_document.created',
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
