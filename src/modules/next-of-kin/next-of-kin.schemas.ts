import Type, { type Static } from 'typebox'
import { DateTime, IdParams, Nullable, Uuid } from '../../lib/schemas.js'
import { Text300 } from '../crew-records/crew-records.schemas.js'

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
  { title: 'NextOfKin' },
)
export type NextOfKin = Static<typeof NextOfKin>

const NextOfKinFields = {
  relationship: Type.String({ minLength: 1, maxLength: 100, examples: ['spouse'] }),
  fullName: Text300,
  phone: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
  email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
  address: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
}

export const NextOfKinCreate = Type.Object(NextOfKinFields, { title: 'NextOfKinCreate' })
export const NextOfKinUpdate = Type.Partial(Type.Object(NextOfKinFields), { title: 'NextOfKinUpdate' })
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
