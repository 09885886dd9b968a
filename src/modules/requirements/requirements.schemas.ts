import Type, { type Static } from 'typebox'
import { CERTIFICATE_TYPES, DOCUMENT_TYPES } from '../../db/schema.js'

// DECISIONS §10: the requirements matrix, one item per role.

const EXAMPLE = {
  items: [
    { role: '*', documentTypes: ['passport', 'seaman_book'], certificateTypes: ['stcw_basic_safety', 'medical'] },
    { role: 'Captain', documentTypes: ['us_visa'], certificateTypes: ['deck_certificate', 'gmdss_endorsement'] },
  ],
}

const Role = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'An assignment role, matched after trimming and case-insensitively; "*" applies to every role',
  examples: ['Captain'],
})
const DocumentTypes = Type.Array(Type.Enum(DOCUMENT_TYPES), { examples: [['passport', 'seaman_book']] })
const CertificateTypes = Type.Array(Type.Enum(CERTIFICATE_TYPES), { examples: [['stcw_basic_safety', 'medical']] })

export const Requirement = Type.Object(
  { role: Type.String(), documentTypes: DocumentTypes, certificateTypes: CertificateTypes },
  { title: 'Requirement' },
)

export const Requirements = Type.Object({ items: Type.Array(Requirement) }, { title: 'Requirements', examples: [EXAMPLE] })
export type Requirements = Static<typeof Requirements>

export const RequirementsReplace = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        role: Role,
        documentTypes: Type.Optional(Type.Array(Type.Enum(DOCUMENT_TYPES), { default: [] })),
        certificateTypes: Type.Optional(Type.Array(Type.Enum(CERTIFICATE_TYPES), { default: [] })),
      }),
      { maxItems: 200 },
    ),
  },
  { title: 'RequirementsReplace', examples: [EXAMPLE] },
)
export type RequirementsReplace = Static<typeof RequirementsReplace>
