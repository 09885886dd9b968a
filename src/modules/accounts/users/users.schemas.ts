import Type, { type Static } from 'typebox'
import { PRODUCTS, ROLES, USER_STATES } from '../../../db/schema.js'
import { DateTime, IdParams, ListQuery, Nullable, Page, Uuid } from '../../../lib/schemas.js'
import { AccountLink, NewPassword } from '../accounts/accounts.schemas.js'

export const RoleSchema = Type.Enum(ROLES)
export const UserStateSchema = Type.Enum(USER_STATES)
const Email = Type.String({ format: 'email', maxLength: 254 })
const PersonName = Type.String({ minLength: 1, maxLength: 300 })

export const User = Type.Object(
  {
    id: Uuid,
    organizationId: Uuid,
    email: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    role: RoleSchema,
    state: UserStateSchema,
    lastLogin: Nullable(DateTime),
    createdAt: DateTime,
  },
  {
    title: 'User',
    examples: [
      {
        id: '0190a000-0000-7000-8000-000000000a01',
        organizationId: '0190a000-0000-7000-8000-000000000a00',
        email: 'anna.berg@example.com',
        firstName: 'Anna',
        lastName: 'Berg',
        role: 'crew',
        state: 'active',
        lastLogin: '2026-06-15T08:30:00.000Z',
        createdAt: '2026-06-15T08:30:00.000Z',
      },
    ],
  },
)
export type User = Static<typeof User>

export const UserCreate = Type.Object(
  {
    email: Email,
    firstName: PersonName,
    lastName: PersonName,
    role: RoleSchema,
    password: Type.Optional(NewPassword),
  },
  {
    title: 'UserCreate',
    examples: [{ email: 'anna.berg@example.com', firstName: 'Anna', lastName: 'Berg', role: 'crew', password: 'correct-horse-battery' }],
  },
)

/** A created user; one created without a password comes with their invitation (DECISIONS §15). */
export const CreatedUser = Type.Object(
  { ...User.properties, invitation: Type.Optional(AccountLink) },
  {
    title: 'CreatedUser',
    examples: [
      {
        ...(User as { examples?: object[] }).examples?.[0],
        state: 'pending',
        lastLogin: null,
        invitation: {
          url: 'https://crew.example.com/console/invite/3q2-7wKp0cV1yZ4bN8mR5tX6uA9dE2fH7jL0oQ3sW1g',
          expiresAt: '2026-06-22T08:30:00.000Z',
        },
      },
    ],
  },
)

export const UserUpdate = Type.Object(
  {
    email: Type.Optional(Email),
    firstName: Type.Optional(PersonName),
    lastName: Type.Optional(PersonName),
    role: Type.Optional(RoleSchema),
    state: Type.Optional(UserStateSchema),
    password: Type.Optional(NewPassword),
  },
  { title: 'UserUpdate', examples: [{ role: 'office_employee' }] },
)
export type UserUpdate = Static<typeof UserUpdate>

export const UserListQuery = Type.Object({
  ...ListQuery.properties,
  role: Type.Optional(RoleSchema),
  state: Type.Optional(UserStateSchema),
})
export type UserListQuery = Static<typeof UserListQuery>

export const UserPage = Page(User)
export const UserParams = IdParams('user_id')

export const Session = Type.Object(
  {
    role: RoleSchema,
    roles: Type.Array(RoleSchema),
    permissions: Type.Array(Type.String()),
    featureFlags: Type.Array(Type.Enum(PRODUCTS), { description: "The organization's products" }),
  },
  {
    title: 'Session',
    examples: [
      {
        role: 'crew',
        roles: ['crew'],
        permissions: ['users:read:self', 'ships:read', 'crew:read:self', 'crew:write:self'],
        featureFlags: ['crew', 'learn'],
      },
    ],
  },
)
