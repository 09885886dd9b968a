import type { components, SeaworthyClient } from '../../../client/index.js'
import { unwrap } from '../api.js'
import type { Field, Values } from '../shared/EntityForm.js'
import { labelOf } from '../shared/labels.js'
import { CERTIFICATE_TYPES, DOCUMENT_TYPES } from '../shared/record-types.js'

type S = components['schemas']
export type CrewRecord = S['IdentityDocument'] | S['Certificate'] | S['Experience'] | S['NextOfKin']

/** One kind of a person's records as office staff enter and correct it (DECISIONS §3). */
export interface RecordKind {
  /** The profile query the kind's list lives under. */
  queryKey: string
  noun: string
  /** The upload's `kind`, for the records that carry a scan. */
  upload?: string
  /** The type is chosen once: a PATCH may not change it. */
  fields: (editing: boolean) => Field[]
  create: (api: SeaworthyClient, userId: string, body: Record<string, string | null>) => Promise<unknown>
  update: (api: SeaworthyClient, id: string, body: Record<string, string | null>) => Promise<unknown>
  remove: (api: SeaworthyClient, id: string) => Promise<unknown>
}

const options = (codes: string[]) => codes.map((value) => ({ value, label: labelOf(value) }))
const DATES: Field[] = [
  { name: 'issueDate', label: 'Issued', type: 'date' },
  { name: 'expiryDate', label: 'Expires', type: 'date' },
]
const NOTES: Field = { name: 'notes', label: 'Notes', type: 'textarea', description: 'Changing only the notes keeps the review' }
const user = (userId: string) => ({ params: { path: { user_id: userId } } })

export const IDENTITY_DOCUMENT: RecordKind = {
  queryKey: 'documents',
  noun: 'identity document',
  upload: 'identity_document',
  fields: (editing) => [
    ...(editing
      ? []
      : [{ name: 'documentType', label: 'Type', type: 'select', required: true, options: options(DOCUMENT_TYPES) } as const]),
    { name: 'documentNumber', label: 'Number' },
    { name: 'issuingCountry', label: 'Issuing country', description: 'ISO code, e.g. NO or NOR' },
    ...DATES,
    NOTES,
  ],
  create: (api, userId, body) =>
    unwrap(api.POST('/api/v1/crew/users/{user_id}/identity-documents', { ...user(userId), body: body as S['IdentityDocumentCreate'] })),
  update: (api, id, body) =>
    unwrap(api.PATCH('/api/v1/crew/identity-documents/{document_id}', { params: { path: { document_id: id } }, body })),
  remove: (api, id) => unwrap(api.DELETE('/api/v1/crew/identity-documents/{document_id}', { params: { path: { document_id: id } } })),
}

export const CERTIFICATE: RecordKind = {
  queryKey: 'certificates',
  noun: 'certificate',
  upload: 'certificate',
  fields: (editing) => [
    ...(editing
      ? []
      : [{ name: 'certificateType', label: 'Type', type: 'select', required: true, options: options(CERTIFICATE_TYPES) } as const]),
    { name: 'certificateNumber', label: 'Number' },
    { name: 'issuingAuthority', label: 'Issuing authority' },
    ...DATES,
    NOTES,
  ],
  create: (api, userId, body) =>
    unwrap(api.POST('/api/v1/crew/users/{user_id}/certificates', { ...user(userId), body: body as S['CertificateCreate'] })),
  update: (api, id, body) =>
    unwrap(api.PATCH('/api/v1/crew/certificates/{certificate_id}', { params: { path: { certificate_id: id } }, body })),
  remove: (api, id) => unwrap(api.DELETE('/api/v1/crew/certificates/{certificate_id}', { params: { path: { certificate_id: id } } })),
}

export const EXPERIENCE: RecordKind = {
  queryKey: 'experience',
  noun: 'experience',
  fields: () => [
    { name: 'companyName', label: 'Company', required: true },
    { name: 'position', label: 'Position', required: true },
    { name: 'shipType', label: 'Ship type' },
    { name: 'startDate', label: 'From', type: 'date', required: true },
    { name: 'endDate', label: 'To', type: 'date', description: 'Blank while still serving' },
    NOTES,
  ],
  create: (api, userId, body) =>
    unwrap(api.POST('/api/v1/crew/users/{user_id}/experience', { ...user(userId), body: body as S['ExperienceCreate'] })),
  update: (api, id, body) =>
    unwrap(
      api.PATCH('/api/v1/crew/experience/{experience_id}', {
        params: { path: { experience_id: id } },
        body: body as S['ExperienceUpdate'],
      }),
    ),
  remove: (api, id) => unwrap(api.DELETE('/api/v1/crew/experience/{experience_id}', { params: { path: { experience_id: id } } })),
}

export const NEXT_OF_KIN: RecordKind = {
  queryKey: 'next-of-kin',
  noun: 'next of kin',
  fields: () => [
    { name: 'fullName', label: 'Full name', required: true },
    { name: 'relationship', label: 'Relationship', required: true },
    { name: 'phone', label: 'Phone' },
    { name: 'email', label: 'E-mail', type: 'email' },
    { name: 'address', label: 'Address', type: 'textarea' },
  ],
  create: (api, userId, body) =>
    unwrap(api.POST('/api/v1/crew/users/{user_id}/next-of-kin', { ...user(userId), body: body as S['NextOfKinCreate'] })),
  update: (api, id, body) =>
    unwrap(
      api.PATCH('/api/v1/crew/next-of-kin/{next_of_kin_id}', {
        params: { path: { next_of_kin_id: id } },
        body: body as S['NextOfKinUpdate'],
      }),
    ),
  remove: (api, id) => unwrap(api.DELETE('/api/v1/crew/next-of-kin/{next_of_kin_id}', { params: { path: { next_of_kin_id: id } } })),
}

/** A record's current values as the form's strings. */
export function valuesOf(kind: RecordKind, record?: CrewRecord): Values {
  const source = (record ?? {}) as Record<string, unknown>
  return Object.fromEntries(kind.fields(false).map((f) => [f.name, typeof source[f.name] === 'string' ? (source[f.name] as string) : '']))
}

/**
 * The body of a save: every field when creating (blank as null), only the changed ones when correcting,
 * so an unchanged field never counts as an edit.
 */
export function bodyOf(kind: RecordKind, values: Values, initial: Values | null): Record<string, string | null> {
  const body: Record<string, string | null> = {}
  for (const field of kind.fields(initial !== null)) {
    const value = values[field.name]?.trim() || null
    if (initial === null || value !== (initial[field.name] || null)) body[field.name] = value
  }
  return body
}
