import { setTimeout } from 'node:timers/promises'
import type { FastifyBaseLogger } from 'fastify'
import { v7 as uuidv7 } from 'uuid'
import type { AccountsConfig } from '../../../config.js'
import type { Db } from '../../../db/database.js'
import type { AccountLinkPurpose } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { hashPassword, newOpaqueToken, opaqueTokenHash, verifyPassword } from '../../../lib/auth.js'
import { iso } from '../../../lib/dates.js'
import { AppError, conflict, invalid, notFound } from '../../../lib/errors.js'
import { createMailer, type Mailer } from '../../../lib/mail.js'
import { type SessionDeps, startSession } from '../../../lib/sessions.js'
import { revokeUserRefreshTokens } from '../../../lib/sessions.queries.js'
import type { ModuleDeps } from '../../types.js'
import type { AccountLink } from './accounts.schemas.js'
import { endEarlierCredentials, insertLink, linkIsLive, lockLinkUser, passwordHashOf, setPassword, useLink } from './accounts.queries.js'

export interface LinkDeps {
  db: Db
  publicUrl: string
  accounts: AccountsConfig
  mailer: Mailer | null
  log: FastifyBaseLogger
}

/** A module's way to the link dependencies: the mailer is made once, the log is the request's. */
export function linkDepsOf({ db, config }: Pick<ModuleDeps, 'db' | 'config'>): (log: FastifyBaseLogger) => LinkDeps {
  const mailer = createMailer(config.accounts.mail)
  return (log) => ({ db, publicUrl: config.publicUrl, accounts: config.accounts, mailer, log })
}

const RESET_TTL_HOURS = 24

/** Each kind of link: its console page, lifetime, audit event and e-mail. */
const KINDS = {
  invitation: {
    page: 'invite',
    ttlHours: (accounts: AccountsConfig) => accounts.invitationTtlHours,
    event: 'user.invited',
    subject: (organization: string) => `${organization} invites you to Seaworthy`,
    intro: (organization: string) => `${organization} has invited you to Seaworthy. Choose your password here:`,
  },
  password_reset: {
    page: 'reset',
    ttlHours: () => RESET_TTL_HOURS,
    event: 'user.password_reset_issued',
    subject: () => 'Reset your Seaworthy password',
    intro: () => 'An administrator has let you choose a new Seaworthy password. Choose it here:',
  },
} as const

type LinkUser = NonNullable<Awaited<ReturnType<typeof lockLinkUser>>>
/** Who a link's e-mail goes to. */
type Recipient = Pick<LinkUser, 'email' | 'first_name' | 'organization_name'>

export const linkUrl = (deps: LinkDeps, purpose: AccountLinkPurpose, token: string) =>
  `${deps.publicUrl}/console/${KINDS[purpose].page}/${token}`

/** Issues a link in the caller's transaction: the earlier ones of its kind stop working. Mail goes after the commit. */
async function issueLink(trx: Db, deps: LinkDeps, actor: Actor, user: LinkUser, purpose: AccountLinkPurpose) {
  const kind = KINDS[purpose]
  const { token, hash } = newOpaqueToken()
  const ttlHours = kind.ttlHours(deps.accounts)
  const expiresAt = await insertLink(trx, actor, kind.event, { id: uuidv7(), userId: user.id, purpose, hash, ttlHours })
  const link = { url: linkUrl(deps, purpose, token), expiresAt: iso(expiresAt) }
  const send = () => mailLink(deps, user, purpose, link)
  return { link, send }
}

export async function mailLink(deps: LinkDeps, user: Recipient, purpose: AccountLinkPurpose, link: AccountLink): Promise<void> {
  if (!deps.mailer) return
  const kind = KINDS[purpose]
  const text = `Hello ${user.first_name},\n\n${kind.intro(user.organization_name)}\n\n${link.url}\n\nThe link works once, until ${link.expiresAt}.\n`
  await deps.mailer({ to: user.email, subject: kind.subject(user.organization_name), text }, deps.log)
}

/** `POST /users/{id}/invitation` and `/password-reset`: 404 out of reach, 409 when the user's state rules the link out. */
export async function issueLinkFor(deps: LinkDeps, actor: Actor, userId: string, purpose: AccountLinkPurpose): Promise<AccountLink> {
  const { link, send } = await deps.db.transaction().execute(async (trx) => {
    const user = await lockLinkUser(trx, actor.orgId, userId)
    if (!user) throw notFound('User')
    if (purpose === 'invitation' && user.state !== 'pending') throw conflict('Only a pending user can be invited')
    if (purpose === 'password_reset' && user.state === 'suspended') throw conflict('A suspended user cannot reset their password')
    return issueLink(trx, deps, actor, user, purpose)
  })
  await send()
  return link
}

const linkNotFound = (purpose: AccountLinkPurpose) =>
  new AppError(404, purpose === 'invitation' ? 'Invitation not found or expired' : 'Password reset not found or expired')

/**
 * Accepts an invitation or a password reset: the link is spent, the password set, and the user
 * signed in. A reset also ends every earlier sign-in and access token of the user.
 */
export async function acceptLink(deps: SessionDeps, purpose: AccountLinkPurpose, token: string, password: string, requestId: string) {
  const hash = opaqueTokenHash(token)
  // Checked before the slow hash, and again by the write: a link used meanwhile still fails.
  if (!(await linkIsLive(deps.db, purpose, hash))) throw linkNotFound(purpose)
  const passwordHash = await hashPassword(password)
  const answer = await deps.db.transaction().execute(async (trx) => {
    const user = await useLink(trx, purpose, hash, passwordHash, requestId)
    if (!user) return undefined
    if (purpose === 'password_reset') {
      const cutoff = Date.now()
      await revokeUserRefreshTokens(trx, user.id)
      await endEarlierCredentials(trx, user.id, new Date(cutoff))
      // Every token of the cutoff's second is refused (`iat` is whole seconds): the new one waits for the next.
      await setTimeout(1000 - (cutoff % 1000))
    }
    return { userId: user.id, tokens: await startSession({ ...deps, db: trx }, user) }
  })
  if (!answer) throw linkNotFound(purpose)
  if (purpose === 'password_reset') deps.actors.changed(answer.userId)
  return answer.tokens
}

/** `POST /users/me/password`: the current password proves the caller; the caller's other sign-ins end. */
export async function changeOwnPassword(db: Db, actor: Actor, body: { currentPassword: string; newPassword: string }) {
  const stored = await passwordHashOf(db, actor.userId)
  if (!(await verifyPassword(stored?.password_hash ?? null, body.currentPassword))) {
    throw invalid(['body', 'currentPassword'], 'Current password is incorrect')
  }
  const passwordHash = await hashPassword(body.newPassword)
  await db.transaction().execute(async (trx) => {
    await setPassword(trx, actor, passwordHash)
    await revokeUserRefreshTokens(trx, actor.userId, actor.sessionId)
  })
}
