import Type, { type Static } from 'typebox'
import { ExportFormat } from '../../../lib/csv.js'
import { ListQuery, Page } from '../../../lib/schemas.js'
import { RoleSchema, User, UserStateSchema } from '../../accounts/users/users.schemas.js'
import { ProfileState } from '../verifications/verifications.schemas.js'

/** A user as the users endpoints show them, without organizationId (DECISIONS §3), with the profile state. */
export const RosterUser = Type.Object(
  { ...Type.Omit(User, ['organizationId']).properties, verificationState: ProfileState },
  {
    examples: [
      {
        id: '0190a000-0000-7000-8000-000000000a01',
        email: 'anna.berg@example.com',
        firstName: 'Anna',
        lastName: 'Berg',
        role: 'crew',
        state: 'active',
        lastLogin: '2026-06-15T08:30:00.000Z',
        createdAt: '2026-06-15T08:30:00.000Z',
        verificationState: 'in_review',
      },
    ],
    title: 'RosterUser',
  },
)
export type RosterUser = Static<typeof RosterUser>

export const RosterQuery = Type.Object({
  ...ListQuery.properties,
  format: ExportFormat,
  role: Type.Optional(RoleSchema),
  state: Type.Optional(UserStateSchema),
  verification_state: Type.Optional(ProfileState),
  assignment_status: Type.Optional(
    Type.Enum(['assigned', 'unassigned'], { description: 'assigned: has an assignment whose endDate is null or not yet passed' }),
  ),
})
export type RosterQuery = Static<typeof RosterQuery>

export const RosterPage = Page(RosterUser)
