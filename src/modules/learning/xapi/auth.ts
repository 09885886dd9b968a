import { createHash, timingSafeEqual } from 'node:crypto'
import type { Db } from '../../../db/database.js'
import { MANAGERS } from '../../../lib/access.js'
import { actorOfToken } from '../../../lib/auth.js'
import { basicCredential } from '../../../lib/basic-auth.js'
import type { ModuleDeps } from '../../types.js'
import type { XapiAgent } from './agents.js'
import { findCredentialByKey } from './credentials.queries.js'
import { XapiError } from './errors.js'
import type { XapiScope } from './scopes.js'

/** Who is calling the LRS: the organization whose LRS it is, and what the caller may do in it. */
export interface XapiPrincipal {
  orgId: string
  /** The credential, for `statements/read/mine`; null for a staff bearer token. */
  credentialId: string | null
  scopes: readonly XapiScope[]
  /** The authority set on what this caller writes; null when the caller may not write. */
  authority: XapiAgent | null
  /**
   * A credential bound to one launch session (cmi5's fetch auth-token): statements must be by this
   * actor in this registration, state documents about them and this activity, and reads see only the registration.
   */
  session?: XapiSession
}

/**
 * A launch session's credential (cmi5's fetch auth-token), made by the learning wiring: its statements are
 * by this actor in this registration, its state documents about them and this activity, and it reads only
 * the registration. `store` stores its statements under its standard's rules (cmi5 §9.3) in the
 * transaction it is given, calling `storeAll` for the statements themselves. The LRS knows no standard.
 */
export interface XapiSession {
  actorKey: string
  registration: string
  activityId: string
  /** State documents the LMS writes for the session (cmi5's LMS.LaunchData): the session reads them and never writes them. */
  lmsStates: readonly string[]
  store(trx: Db, statements: readonly Record<string, any>[], storeAll: () => Promise<string[]>): Promise<string[]>
  /** Told of each State document the session reads (cmi5 §10: the LMS records the read of LMS.LaunchData). */
  stateRead(db: Db, stateId: string): Promise<void>
}

/**
 * One way of reading the Authorization header. Answers null when the header is not of its kind (or
 * names nothing it knows), so the next authenticator may try; 401 when none accepts it. Other modules
 * add theirs (a session credential) in modules/index.ts.
 */
export type XapiAuthenticator = (authorization: string, deps: ModuleDeps) => Promise<XapiPrincipal | null>

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex')

/** What each operation needs: any one of these scopes. */
export const GRANTS: Record<string, readonly XapiScope[]> = {
  readStatements: ['all', 'all/read', 'statements/read', 'statements/read/mine'],
  writeStatements: ['all', 'statements/write'],
  readState: ['all', 'all/read', 'state'],
  writeState: ['all', 'state'],
  readProfiles: ['all', 'all/read', 'profile'],
  writeProfiles: ['all', 'profile'],
  readDefinitions: ['all', 'all/read', 'define', 'profile', 'state', 'statements/read'],
}

export function assertGranted(principal: XapiPrincipal, needs: readonly XapiScope[]): void {
  if (!principal.scopes.some((scope) => needs.includes(scope)))
    throw new XapiError(403, 'This credential does not have the scope for this operation')
}

/** Only `statements/read/mine`: such a caller reads only what its credential wrote. */
export const readsOnlyOwn = (principal: XapiPrincipal) =>
  principal.credentialId !== null &&
  !principal.scopes.some((scope) => scope !== 'statements/read/mine' && GRANTS.readStatements.includes(scope))

/** An LRS credential: HTTP Basic `key:secret`, the secret checked against its SHA-256 (secrets are 256 random bits). */
export const basicCredentials: XapiAuthenticator = async (authorization, { db, config }) => {
  const given = basicCredential(authorization)
  if (!given) return null
  const credential = await findCredentialByKey(db, given.key)
  if (!credential) return null
  if (!timingSafeEqual(Buffer.from(hashSecret(given.secret), 'hex'), Buffer.from(credential.secret_hash, 'hex'))) return null
  return {
    orgId: credential.organization_id,
    credentialId: credential.id,
    scopes: credential.scopes as XapiScope[],
    authority: { objectType: 'Agent', name: credential.name, account: { homePage: config.publicUrl, name: credential.key } },
  }
}

/** An admin's or office admin's bearer token reads statements (DECISIONS §13.1), and nothing else. */
export const staffBearer: XapiAuthenticator = async (authorization, { db, tokens, actors }) => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
  if (!match) return null
  const actor = await actorOfToken(db, tokens, actors, match[1]).catch(() => null)
  if (!actor) return null
  if (!MANAGERS.includes(actor.role)) throw new XapiError(403, 'Only admins and office admins read learning records with a token')
  return { orgId: actor.orgId, credentialId: null, scopes: ['statements/read'], authority: null }
}

export async function authenticate(authorization: string | undefined, authenticators: readonly XapiAuthenticator[], deps: ModuleDeps) {
  if (authorization) {
    for (const authenticator of authenticators) {
      const principal = await authenticator(authorization, deps)
      if (principal) return principal
    }
  }
  throw new XapiError(401, "Send the credential's key and secret with HTTP Basic authentication", {
    'www-authenticate': 'Basic realm="xAPI"',
  })
}
