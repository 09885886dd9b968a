import { v7 as uuidv7 } from 'uuid'
import type { Actor } from '../../../lib/access.js'
import { newOpaqueToken } from '../../../lib/auth.js'
import { iso } from '../../../lib/dates.js'
import { conflict } from '../../../lib/errors.js'
import { type LinkDeps, linkUrl, mailLink } from '../accounts/accounts.service.js'
import { findOrganization, createInvitedUser as insertInvitedUser, type NewUser } from './users.queries.js'
import type { UserUpdate } from './users.schemas.js'

/** An admin may not lock themselves out: no self-suspension, no dropping their own admin role. */
export function assertNotSelfLockout(actor: Actor, userId: string, body: UserUpdate): void {
  if (userId.toLowerCase() !== actor.userId) return
  if ((body.state && body.state !== 'active') || (body.role && body.role !== 'admin')) {
    throw conflict('You cannot suspend yourself or remove your own admin role')
  }
}

/** A user created without a password, with the invitation that lets them in (DECISIONS §15): one statement. */
export async function createInvitedUser(deps: LinkDeps, actor: Actor, fields: Omit<NewUser, 'passwordHash'>) {
  const { token, hash } = newOpaqueToken()
  const invitation = { linkId: uuidv7(), hash, ttlHours: deps.accounts.invitationTtlHours }
  const { user, expiresAt } = await insertInvitedUser(deps.db, actor, { ...fields, passwordHash: null }, invitation)
  const link = { url: linkUrl(deps, 'invitation', token), expiresAt: iso(expiresAt) }
  if (deps.mailer) {
    const organization = await findOrganization(deps.db, actor.orgId)
    await mailLink(deps, { email: user.email, first_name: user.firstName, organization_name: organization.name }, 'invitation', link)
  }
  return { ...user, invitation: link }
}
