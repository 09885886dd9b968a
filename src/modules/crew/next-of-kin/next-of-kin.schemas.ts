import Type, { type Static } from 'typebox'
import { DateTime, IdParams, Nullable, Uuid } from '../../../lib/schemas.js'
import { Text300 } from '../reviewed-records/reviewed-records.schemas.js'

export const NextOfKin = Type.Object(
  {
    id: Uuid,
    relationship: Type.String(),
    fullName: Type.String(),
    phone: Nullable(Type.String()),
    email: Nullable(Type.String()),
    address: Nullable(Type.String()),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  {
    examples: [
      {
        id: '0190a000-0000-7000-8000-000000000a0c',
        relationship: 'spouse',
        fullName: 'Erik Berg',
        phone: '+47 912 34 567',
        email: 'erik.berg@example.com',
        address: 'Strandkaien 4, 5013 Bergen',
        createdAt: '2026-06-15T08:30:00.000Z',
        updatedAt: '2026-06-15T08:30:00.000Z',
      },
    ],
    title: 'NextOfKin',
  },
)
export type NextOfKin = Static<typeof NextOfKin>

const NextOfKinFields = {
  relationship: Type.String({ minLength: 1, maxLength: 100, examples: ['spouse'] }),
  fullName: Text300,
  phone: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
  email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
  address: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
}

export const NextOfKinCreate = Type.Object(NextOfKinFields, {
  examples: [{ relationship: 'spouse', fullName: 'Erik Berg', phone: '+47 912 34 567' }],
  title: 'NextOfKinCreate',
})
export const NextOfKinUpdate = Type.Partial(Type.Object(NextOfKinFields), {
  examples: [{ phone: '+47 912 34 568' }],
  title: 'NextOfKinUpdate',
})
export type NextOfKinUpdate = Static<typeof NextOfKinUpdate>

/** The fields a request sets, and their columns (src/lib/columns.ts). */
export const NEXT_OF_KIN_COLUMNS = {
  relationship: 'relationship',
  fullName: 'full_name',
  phone: 'phone',
  email: 'email',
  address: 'address',
} as const

export const NextOfKinParams = IdParams('next_of_kin_id')
