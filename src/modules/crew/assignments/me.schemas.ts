import Type from 'typebox'
import { Nullable, Uuid } from '../../../lib/schemas.js'
import { User } from '../../accounts/users/users.schemas.js'
import { ASSIGNMENT_EXAMPLE } from './assignments.schemas.js'

export const MeAssignment = Type.Object(
  {
    id: Uuid,
    shipName: Type.String(),
    shipImoNumber: Type.String(),
    role: Type.String(),
    startDate: Nullable(Type.String({ format: 'date' })),
    dueDate: Nullable(Type.String({ format: 'date' })),
    endDate: Nullable(Type.String({ format: 'date' })),
    isActive: Type.Boolean(),
  },
  { title: 'MeAssignment' },
)

/** The assignment of the OpenAPI examples, with the fields /users/me lists. */
const ME_ASSIGNMENT_EXAMPLE = Object.fromEntries(
  Object.keys(MeAssignment.properties).map((field) => [field, ASSIGNMENT_EXAMPLE[field as keyof typeof ASSIGNMENT_EXAMPLE]]),
)

export const Me = Type.Object(
  {
    user: User,
    organization: Type.Object({
      id: Uuid,
      name: Type.String(),
      domain: Nullable(Type.String()),
    }),
    assignments: Type.Array(MeAssignment),
  },
  {
    title: 'Me',
    examples: [
      {
        user: {
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
        organization: { id: '0190a000-0000-7000-8000-000000000a00', name: 'Nordic Shipping', domain: 'nordic.example.com' },
        assignments: [ME_ASSIGNMENT_EXAMPLE],
      },
    ],
  },
)
