import type { FastifyBaseLogger } from 'fastify'
import { decodeJwt, type JWTPayload } from 'jose'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../../db/database.js'
import type { Role } from '../../../db/schema.js'
import { ROLES } from '../../../db/schema.js'
import { unauthorized } from '../../../lib/errors.js'
import type { Oidc } from '../../../lib/oidc.js'
import { type SessionDeps, startSession } from '../../../lib/sessions.js'
import { recordLogin } from '../users/users.queries.js'
import { activatePendingUser, insertSsoUser, type SsoRow, settingsByIssuer, userByEmail } from './sso.queries.js'

/** An identity refused; the reason goes to the log, the caller only learns that it was refused. */
export class IdentityRejected extends Error {}

export interface SsoDeps extends SessionDeps {
  oidc: Oidc
}

type SignedInUser = NonNullable<Awaited<ReturnType<typeof userByEmail>>>

/** Any failure of the identity provider's side (network, discovery, signature, claims) is a refusal. */
export async function fromProvider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw new IdentityRejected(error instanceof Error ? `${error.name}: ${error.message}` : String(error))
  }
}

export const audienceOf = (settings: SsoRow) => settings.audience ?? settings.client_id

/** `POST /api/v1/auth/token` with the token-exchange grant: an ID token for a Seaworthy token. */
export async function exchangeIdToken(deps: SsoDeps, idToken: string, { log, id }: { log: FastifyBaseLogger; id: string }) {
  try {
    const issuer = await fromProvider(async () => String(decodeJwt(idToken).iss))
    // Read unverified only to find who trusts this issuer; everything is verified before use.
    const trusting = await settingsByIssuer(deps.db, issuer)
    if (trusting.length === 0) throw new IdentityRejected(`no organization trusts the issuer ${issuer}`)
    const audiences = [...new Set(trusting.map(audienceOf))]
    const claims = await fromProvider(() => deps.oidc.verifyIdToken(idToken, { issuer, audience: audiences }))
    const tokenAudiences = [claims.aud ?? []].flat()
    const organizations = trusting.filter((settings) => tokenAudiences.includes(audienceOf(settings)))
    return await startSession(deps, await signIn(deps.db, organizations, claims, id))
  } catch (error) {
    if (!(error instanceof IdentityRejected)) throw error
    log.info({ reason: error.message }, 'identity token refused')
    throw unauthorized('Invalid identity token')
  }
}

/**
 * The user of a verified identity among the organizations whose settings accepted it: found by
 * verified e-mail, or created just in time when exactly one organization accepted it. An e-mail of
 * another organization, or a suspended user, is refused.
 */
export async function signIn(db: Db, organizations: SsoRow[], claims: JWTPayload, requestId: string): Promise<SignedInUser> {
  const email = verifiedEmail(claims)
  let user = await userByEmail(db, email)
  if (!user) {
    if (organizations.length !== 1) throw new IdentityRejected(`${organizations.length} organizations could take a new user`)
    const [settings] = organizations
    const newUser = { id: uuidv7(), email, ...namesOf(claims, email), role: roleFor(settings, claims) }
    // The new user is the actor of their own creation: they proved who they are to the identity provider.
    const source = { orgId: settings.organization_id, actor: { userId: newUser.id, role: newUser.role }, requestId }
    await insertSsoUser(db, source, newUser)
    // The row just made, or the one a concurrent first sign-in made.
    user = await userByEmail(db, email)
    if (!user) throw new IdentityRejected('the new user could not be read back')
  }
  if (!organizations.some((settings) => settings.organization_id === user.organization_id)) {
    throw new IdentityRejected('the e-mail belongs to a user of another organization')
  }
  if (user.state === 'suspended') throw new IdentityRejected('the user is suspended')
  if (user.state === 'pending') {
    const { organization_id: orgId, id: userId, role } = user
    await activatePendingUser(db, { orgId, actor: { userId, role }, requestId })
  }
  await recordLogin(db, user.id)
  return user
}

// Text PostgreSQL can store (no NUL, no unpaired surrogate), and no control characters: it becomes a login.
const EMAIL = /^[^\s@\p{Cc}\p{Surrogate}]+@[^\s@\p{Cc}\p{Surrogate}]+$/u
const storable = (text: string) => text.slice(0, 300).replace(/\p{Surrogate}/gu, '')

function verifiedEmail(claims: JWTPayload): string {
  const { email, email_verified: verified } = claims
  // Entra ID does not send email_verified; its own "email domain owner verified" claim says the same.
  if (verified !== true && !(verified === undefined && claims.xms_edov === true)) throw new IdentityRejected('the e-mail is not verified')
  if (typeof email !== 'string' || email.length > 254 || !EMAIL.test(email)) {
    throw new IdentityRejected('no usable email claim')
  }
  return email
}

/** The role claim (a string or a list) through the role map; several matches give the highest role. */
export function roleFor(settings: SsoRow, claims: JWTPayload): Role {
  if (!settings.role_claim) return settings.default_role
  const values = [claims[settings.role_claim]].flat()
  const mapped = values
    .filter((v): v is string => typeof v === 'string' && Object.hasOwn(settings.role_map, v))
    .map((v) => settings.role_map[v])
  return ROLES.find((role) => mapped.includes(role)) ?? settings.default_role
}

function namesOf(claims: JWTPayload, email: string): { firstName: string; lastName: string } {
  const text = (value: unknown) => {
    const cleaned = typeof value === 'string' ? storable(value.replace(/\p{Cc}/gu, ' ').trim()) : ''
    return cleaned || undefined
  }
  const [first, ...rest] = (text(claims.name) ?? '').split(/\s+/)
  return {
    firstName: text(claims.given_name) ?? text(first) ?? storable(email.slice(0, email.indexOf('@'))),
    lastName: text(claims.family_name) ?? text(rest.join(' ')) ?? '',
  }
}
