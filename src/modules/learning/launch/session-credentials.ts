import { timingSafeEqual } from 'node:crypto'
import type { Config } from '../../../config.js'
import type { Db } from '../../../db/database.js'
import { agentKey } from '../xapi/agents.js'
import { hashSecret, type XapiAuthenticator } from '../xapi/auth.js'
import { XapiError } from '../xapi/errors.js'
import { LAUNCH_DATA } from '../xapi/session.js'
import { assertValidStatement, normalizeStatement } from '../xapi/statement-rules.js'
import { applyAuStatements } from './cmi5-rules.js'
import { satisfaction } from './move-on.js'
import { type LaunchDeps, learnerAgent, loadRun, newSecret, settle } from './registration-run.js'
import {
  auStates,
  closedToRecords,
  findSession,
  lockSession,
  recordAuStates,
  recordLaunchDataRead,
  spendFetch,
  updateSession,
} from './sessions.queries.js'
import { endSession } from './sessions.service.js'

/** A session credential's key: `session.<session id>` (never a credential key of the credentials API, which are hex). */
export const KEY_PREFIX = 'session.'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const sameHash = (secret: string, hash: string | null) =>
  hash !== null && timingSafeEqual(Buffer.from(hashSecret(secret), 'hex'), Buffer.from(hash, 'hex'))

/** cmi5's fetch error body (§8.2.3): `1` used or expired, `2` security, `3` application; HTTP 200 all the same. */
const fetchError = (code: '1' | '2' | '3', text: string) => ({ 'error-code': code, 'error-text': text })

/**
 * The one-time fetch URL (cmi5 §8.2): the first POST with the session's fetch secret answers the
 * session credential as `auth-token` (HTTP Basic); every later call answers cmi5's error body.
 */
export async function fetchAuthToken(db: Db, token: string) {
  const [sessionId, secret, extra] = token.split('.')
  if (!sessionId || !secret || extra !== undefined || !UUID.test(sessionId)) return fetchError('2', 'Not a fetch URL of this LMS')
  const credential = newSecret()
  const spent = await spendFetch(db, sessionId.toLowerCase(), hashSecret(secret), hashSecret(credential))
  if (spent) return { 'auth-token': Buffer.from(`${KEY_PREFIX}${spent.id}:${credential}`).toString('base64') }
  const session = await findSession(db, sessionId.toLowerCase())
  if (!session || !sameHash(secret, session.fetch_hash)) return fetchError('2', 'Not a fetch URL of this LMS')
  return fetchError('1', session.fetched ? 'The fetch URL has already been used' : 'The launch session has ended')
}

/**
 * A launch session's credential as the LRS's first authenticator (DECISIONS §13.4): it writes only its
 * learner's statements in its registration, under cmi5's statement rules (§9.3) in one transaction
 * with the registration and the session locked, and reads only the registration. Refused once the
 * session has ended or expired.
 */
export const sessionCredentials =
  (config: Config): XapiAuthenticator =>
  async (authorization, { db }) => {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization)
    if (!match) return null
    const decoded = Buffer.from(match[1], 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    const key = decoded.slice(0, colon)
    if (colon < 0 || !key.startsWith(KEY_PREFIX) || !UUID.test(key.slice(KEY_PREFIX.length))) return null
    const session = await findSession(db, key.slice(KEY_PREFIX.length).toLowerCase())
    if (!session || !sameHash(decoded.slice(colon + 1), session.secret_hash)) return null
    if (session.ended_at) throw new XapiError(403, `This launch session has ended (${session.ended_by})`)
    if (closedToRecords(session)) throw new XapiError(403, 'This launch session has expired')
    const learner = learnerAgent(config.publicUrl, { id: session.user_id, first_name: '', last_name: '' })
    const actorKey = agentKey(learner) as string
    return {
      orgId: session.organization_id,
      credentialId: null,
      scopes: ['statements/write', 'statements/read', 'state', 'profile'],
      authority: { objectType: 'Agent', name: 'Seaworthy launch session', account: { homePage: config.publicUrl, name: `session/${session.id}` } },
      session: {
        actorKey,
        registration: session.registration_id,
        activityId: session.activity_id,
        store: (trx, statements, storeAll) => storeSessionStatements({ db: trx, config }, { ...session, actorKey }, statements, storeAll),
        stateRead: async (db, stateId) => {
          if (stateId === LAUNCH_DATA) await recordLaunchDataRead(db, session.id)
        },
      },
    }
  }

/** An AU's statements, under cmi5's rules, and what they change: the session, the registration's AU, moveOn, the end. */
async function storeSessionStatements(
  deps: LaunchDeps,
  found: { id: string; organization_id: string; registration_id: string; actorKey: string },
  statements: readonly Record<string, any>[],
  storeAll: () => Promise<string[]>,
): Promise<string[]> {
  const { db: trx } = deps
  const source = { orgId: found.organization_id, actor: null, requestId: null }
  const run = await loadRun(trx, deps.config, found.organization_id, found.registration_id)
  const session = await lockSession(trx, found.organization_id, found.id)
  if (!session || session.ended_at) throw new XapiError(403, 'This launch session has ended')
  const au = run.aus[session.au_index]
  const states = await auStates(trx, run.reg.id)
  const auBefore = states.get(session.au_index) ?? { completed: false, passed: false, waived: null }
  // xAPI's rules first (400), on the statements as they will be stored; cmi5's then (403).
  const checked = statements.map((statement, index) => {
    const normalized = statement && typeof statement === 'object' && !Array.isArray(statement) ? normalizeStatement(statement) : statement
    assertValidStatement(normalized, statements.length === 1 ? 'statement' : `statements[${index}]`)
    return normalized
  })
  const launch = {
    sessionId: session.id,
    activityId: session.activity_id,
    registration: session.registration_id,
    actorKey: found.actorKey,
    publisherId: au.publisher_id,
    launchMode: session.launch_mode,
    masteryScore: au.mastery_score,
    launchDataRead: session.launch_data_read,
  }
  const after = applyAuStatements(
    launch,
    {
      session: {
        initialized: session.initialized,
        completed: session.completed,
        outcome: session.outcome,
        terminated: false,
        scoreScaled: session.score_scaled,
        durationSeconds: null,
      },
      au: auBefore,
    },
    checked,
  )
  const ids = await storeAll()
  const updated = await updateSession(trx, session.id, {
    initialized: after.session.initialized,
    completed: after.session.completed,
    outcome: after.session.outcome,
    score_scaled: after.session.scoreScaled,
    last_seen_at: new Date(),
  })
  const changed = after.au.completed !== auBefore.completed || after.au.passed !== auBefore.passed || after.session.outcome === 'failed'
  if (changed) {
    const before = satisfaction(run.aus, run.blocks, states)
    states.set(session.au_index, { ...auBefore, ...after.au })
    await recordAuStates(trx, run.reg.id, [
      { au_index: session.au_index, completed: after.au.completed, passed: after.au.passed, failed: after.session.outcome === 'failed' },
    ])
    await settle(trx, deps, source, run, before, states, session.id)
  }
  if (after.session.terminated) {
    await endSession(trx, deps, source, run, updated, { endedBy: 'terminated', durationSeconds: after.session.durationSeconds })
  }
  return ids
}
