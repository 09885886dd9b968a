import Type, { type Static } from 'typebox'
import { CERTIFICATE_TYPES, DOCUMENT_TYPES } from '../../../db/schema.js'
import { Nullable } from '../../../lib/schemas.js'

// DECISIONS §10: the requirements matrix, one item per role.

const EXAMPLE = {
  items: [
    {
      role: '*',
      documentTypes: ['passport', 'seaman_book'],
      certificateTypes: ['stcw_basic_safety', 'medical'],
      minSeaServiceDays: null,
    },
    {
      role: 'Captain',
      documentTypes: ['us_visa'],
      certificateTypes: ['deck_certificate', 'gmdss_endorsement'],
      minSeaServiceDays: 365,
    },
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
const MinSeaServiceDays = Nullable(
  Type.Integer({
    minimum: 0,
    maximum: 36500,
    description:
      'Days of verified sea service in this role a person needs by the start of the assignment (DECISIONS §14); ' +
      'the larger of the role\'s item and "*" applies; null: none',
  }),
)

export const Requirement = Type.Object(
  { role: Type.String(), documentTypes: DocumentTypes, certificateTypes: CertificateTypes, minSeaServiceDays: MinSeaServiceDays },
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
        minSeaServiceDays: Type.Optional(MinSeaServiceDays),
      }),
      { maxItems: 200 },
    ),
  },
  { title: 'RequirementsReplace', examples: [EXAMPLE] },
)
export type RequirementsReplace = Static<typeof RequirementsReplace>
