import { timingSafeEqual } from 'node:crypto'
import type { Config } from '../../../config.js'
import type { Db } from '../../../db/database.js'
import { basicCredential, encodeBasic } from '../../../lib/basic-auth.js'
import { agentKey } from '../xapi/agents.js'
import { hashSecret, type XapiAuthenticator } from '../xapi/auth.js'
import { XapiError } from '../xapi/errors.js'
import { learnerAgent } from './registration-run.js'
import { closedToRecords, findSession, type SessionRow } from './sessions.queries.js'
import { type LearningStandard, standardOf } from './standard.js'

// A launch session's credential (DECISIONS §13.4), for every standard: HTTP Basic `session.<id>:<secret>`,
// made at launch (a player's) or by cmi5's one-time fetch, read here only.

/** A session credential's key: `session.<session id>` (never a credential key of the credentials API, which are hex). */
const KEY_PREFIX = 'session.'
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const sameHash = (secret: string, hash: string | null) =>
  hash !== null && timingSafeEqual(Buffer.from(hashSecret(secret), 'hex'), Buffer.from(hash, 'hex'))

/** The session's credential as the Authorization header's Basic value (cmi5's auth-token). */
export const sessionCredential = (sessionId: string, secret: string) => encodeBasic(`${KEY_PREFIX}${sessionId}`, secret)

/**
 * The session a session credential names, when the secret is that session's; null otherwise (and when
 * `only` names another session: a player's credential is for its own session's URLs).
 */
export async function credentialSession(db: Db, authorization: string | undefined, only?: string) {
  const given = basicCredential(authorization)
  if (!given?.key.startsWith(KEY_PREFIX)) return null
  const id = given.key.slice(KEY_PREFIX.length).toLowerCase()
  if (!UUID.test(id) || (only !== undefined && id !== only.toLowerCase())) return null
  const session = await findSession(db, id)
  return session && sameHash(given.secret, session.secret_hash) ? session : null
}

/** Why a session takes no more steps (ended or expired), or null while it does. */
export function closedReason(session: Pick<SessionRow, 'ended_at' | 'ended_by' | 'expires_at' | 'accepts_until'>): string | null {
  if (session.ended_at) return `This launch session has ended (${session.ended_by})`
  return closedToRecords(session) ? 'This launch session has expired' : null
}

/**
 * A launch session's credential as the LRS's first authenticator (DECISIONS §13.4), for a standard whose
 * content writes xAPI itself (cmi5): it writes only its learner's statements in its registration, under
 * its standard's rules, and reads only the registration. Refused once the session has ended or expired.
 */
export const sessionCredentials =
  (config: Config, standards: readonly LearningStandard[]): XapiAuthenticator =>
  async (authorization, { db }) => {
    const session = await credentialSession(db, authorization)
    const lrs = session && standardOf(standards, session.standard).runtime.lrs
    if (!session || !lrs) return null
    const closed = closedReason(session)
    if (closed) throw new XapiError(403, closed)
    const learner = learnerAgent(config.publicUrl, { id: session.user_id, first_name: '', last_name: '' })
    const actorKey = agentKey(learner) as string
    return {
      orgId: session.organization_id,
      credentialId: null,
      scopes: ['statements/write', 'statements/read', 'state', 'profile'],
      authority: {
        objectType: 'Agent',
        name: 'Seaworthy launch session',
        account: { homePage: config.publicUrl, name: `session/${session.id}` },
      },
      session: {
        actorKey,
        registration: session.registration_id,
        activityId: session.activity_id,
        lmsStates: lrs.lmsStates,
        store: (trx, statements, storeAll) =>
          lrs.statements({ db: trx, config, standards }, { ...session, actorKey }, statements, storeAll),
        stateRead: (db, stateId) => lrs.stateRead(db, session.id, stateId),
      },
    }
  }
