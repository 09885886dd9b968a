import Type, { type Static } from 'typebox'
import { ListQuery, Page } from '../../lib/schemas.js'
import { RoleSchema, User, UserStateSchema } from '../users/users.schemas.js'
import { ProfileState } from '../verifications/verifications.schemas.js'

/** A user as the users endpoints show them, without organizationId (DECISIONS §3), with the profile state. */
export const RosterUser = Type.Object(
  { ...Type.Omit(User, ['organizationId']).properties, verificationState: ProfileState },
  { title: 'RosterUser' },
)
export type RosterUser = Static<typeof RosterUser>

export const RosterQuery = Type.Object({
  ...ListQuery.properties,
  role: Type.Optional(RoleSchema),
  state: Type.Optional(UserStateSchema),
  verification_state: Type.Optional(ProfileState),
  assignment_status: Type.Optional(
    Type.Enum(['assigned', 'unassigned'], { description: 'assigned: has an assignment whose endDate is null or not yet passed' }),
  ),
})
export type RosterQuery = Static<typeof RosterQuery>

export const RosterPage = Page(RosterUser)
