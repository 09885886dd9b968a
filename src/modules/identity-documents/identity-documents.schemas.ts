import Type, { type Static } from 'typebox'
import './country.js'
import { DOCUMENT_TYPES } from '../../db/schema.js'
import { IdParams, Nullable, Uuid } from '../../lib/schemas.js'
import { EXPIRING_COLUMNS, ExpiringInput, ExpiringOutput } from '../crew-records/crew-records.schemas.js'
import type { ExpiringKind } from '../crew-records/expiring-records.js'

const DocumentType = Type.Enum(DOCUMENT_TYPES)
const DocumentNumber = Type.String({ maxLength: 64 })
const IssuingCountry = Type.String({ format: 'country-code', description: 'ISO 3166-1 alpha-2 or alpha-3, any case; stored upper-case' })

export const IdentityDocument = Type.Object(
  {
    id: Uuid,
    documentType: DocumentType,
    documentNumber: Nullable(Type.String()),
    issuingCountry: Nullable(Type.String()),
    ...ExpiringOutput,
  },
  {
    examples: [
      {
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
    ],
    title: 'IdentityDocument',
  },
)
export type IdentityDocument = Static<typeof IdentityDocument>

const DocumentInput = {
  documentNumber: Type.Optional(Nullable(DocumentNumber)),
  issuingCountry: Type.Optional(Nullable(IssuingCountry)),
  ...ExpiringInput,
}

export const IdentityDocumentCreate = Type.Object(
  { documentType: DocumentType, ...DocumentInput },
  {
    examples: [
      {
        documentType: 'passport',
        documentNumber: 'P1234567',
        issuingCountry: 'NO',
        issueDate: '2024-03-01',
        expiryDate: '2034-02-28',
        uploadId: '0190a000-0000-7000-8000-000000000a07',
      },
    ],
    title: 'IdentityDocumentCreate',
  },
)
export type IdentityDocumentCreate = Static<typeof IdentityDocumentCreate>
export const IdentityDocumentUpdate = Type.Object(DocumentInput, {
  examples: [{ expiryDate: '2034-03-01' }],
  title: 'IdentityDocumentUpdate',
  description: 'documentType cannot be changed (422)',
})
export type IdentityDocumentUpdate = Static<typeof IdentityDocumentUpdate>

/** The fields a PATCH may set, and their columns (src/lib/columns.ts); documentType is set on create only. */
export const DOCUMENT_COLUMNS = { documentNumber: 'document_number', issuingCountry: 'issuing_country', ...EXPIRING_COLUMNS } as const

export const DocumentParams = IdParams('document_id')

/** Identity documents as one kind of expiring record: everything else is written once in crew-records/. */
export const IDENTITY_DOCUMENTS: ExpiringKind = {
  table: 'identity_documents',
  target: 'identity_document',
  label: 'Identity document',
  created: 'identity_document.created',
  typeField: { wire: 'documentType', column: 'document_type' },
  columns: DOCUMENT_COLUMNS,
  // The country is stored upper-case, whatever case it is sent in.
  stored: (body) => ({
    ...body,
    issuingCountry: typeof body.issuingCountry === 'string' ? body.issuingCountry.toUpperCase() : body.issuingCountry,
  }),
  api: {
    record: IdentityDocument,
    create: IdentityDocumentCreate,
    update: IdentityDocumentUpdate,
    params: DocumentParams,
    idParam: 'document_id',
    singular: 'IdentityDocument',
    plural: 'IdentityDocuments',
    phrase: { one: 'an identity document', many: 'identity documents', short: 'document' },
    tag: 'identity documents',
  },
}
