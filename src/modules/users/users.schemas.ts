import Type, { type Static } from 'typebox'
import { PRODUCTS, ROLES, USER_STATES } from '../../db/schema.js'
import { DateTime, IdParams, ListQuery, Nullable, Page, Uuid } from '../../lib/schemas.js'

export const RoleSchema = Type.Enum(ROLES)
export const UserStateSchema = Type.Enum(USER_STATES)
const Email = Type.String({ format: 'email', maxLength: 254 })
const PersonName = Type.String({ minLength: 1, maxLength: 300 })
const Password = Type.String({ minLength: 8, maxLength: 256 })

export const User = Type.Object({
  id: Uuid,
  organizationId: Uuid,
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  role: RoleSchema,
  state: UserStateSchema,
  lastLogin: Nullable(DateTime),
  createdAt: DateTime,
})
export type User = Static<typeof User>

export const UserCreate = Type.Object({
  email: Email,
  firstName: PersonName,
  lastName: PersonName,
  role: RoleSchema,
  password: Type.Optional(Password),
})

export const UserUpdate = Type.Object({
  email: Type.Optional(Email),
  firstName: Type.Optional(PersonName),
  lastName: Type.Optional(PersonName),
  role: Type.Optional(RoleSchema),
  state: Type.Optional(UserStateSchema),
  password: Type.Optional(Password),
})
export type UserUpdate = Static<typeof UserUpdate>

export const UserListQuery = Type.Object({
  ...ListQuery.properties,
  role: Type.Optional(RoleSchema),
  state: Type.Optional(UserStateSchema),
})
export type UserListQuery = Static<typeof UserListQuery>

export const UserPage = Page(User)
export const UserParams = IdParams('user_id')

export const MeAssignment = Type.Object({
  id: Uuid,
  shipName: Type.String(),
  shipImoNumber: Type.String(),
  role: Type.String(),
  startDate: Nullable(Type.String({ format: 'date' })),
  dueDate: Nullable(Type.String({ format: 'date' })),
  endDate: Nullable(Type.String({ format: 'date' })),
  isActive: Type.Boolean(),
})

export const Me = Type.Object({
  user: User,
  organization: Type.Object({
    id: Uuid,
    name: Type.String(),
    domain: Nullable(Type.String()),
  }),
  assignments: Type.Array(MeAssignment),
})

export const Session = Type.Object({
  role: RoleSchema,
  roles: Type.Array(RoleSchema),
  permissions: Type.Array(Type.String()),
  featureFlags: Type.Array(Type.Enum(PRODUCTS), { description: "The organization's products" }),
})
