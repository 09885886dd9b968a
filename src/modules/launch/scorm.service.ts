import type { Db } from '../../db/database.js'
import { AppError } from '../../lib/errors.js'
import { satisfaction } from './move-on.js'
import { type LaunchDeps, loadRun, settle, writeLms } from './registration-run.js'
import type { CommitAnswer, ScormRuntime, ScormStandard } from './scorm.schemas.js'
import { answeredInteractions, initialCmi, scoMoveOn, scormResult, suspended } from './scorm-runtime.js'
import { scormStatements } from './scorm-statements.js'
import { KEY_PREFIX, sameHash } from './session-credentials.js'
import { auStates, findSession, lastRuntime, lockSession, recordAuStates, updateSession } from './sessions.queries.js'
import { endSession } from './sessions.service.js'

type Json = Record<string, any>

const ACCEPTED: CommitAnswer = { result: 'true' }
const refused = (errorText: string): CommitAnswer => ({ result: 'false', errorCode: 101, errorText })

/**
 * The session of a SCORM player's credential (Basic `session.<id>:<secret>`, the one the launch put in
 * the player's fragment), for that session's URL only; null when it is not that session's.
 */
async function credentialSession(db: Db, sessionId: string, authorization: string | undefined) {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '')
  if (!match) return null
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0 || decoded.slice(0, colon).toLowerCase() !== `${KEY_PREFIX}${sessionId.toLowerCase()}`) return null
  const session = await findSession(db, sessionId.toLowerCase())
  return session && sameHash(decoded.slice(colon + 1), session.secret_hash) ? session : null
}

/**
 * What the player loads before the SCO starts (DECISIONS §13.4): the standard, the cmi for scorm-again's
 * loadFromJSON (learner, mode, credit, mastery score, and where the last session of this SCO left off).
 */
export async function scormRuntime(
  { db, config }: LaunchDeps,
  sessionId: string,
  authorization: string | undefined,
): Promise<ScormRuntime> {
  const found = await credentialSession(db, sessionId, authorization)
  if (!found) throw new AppError(401, 'Not this session’s credential', { 'www-authenticate': 'Basic realm="launch session"' })
  if (found.ended_at) throw new AppError(403, `This launch session has ended (${found.ended_by})`)
  if (found.expires_at <= new Date()) throw new AppError(403, 'This launch session has expired; launch the course again')
  const run = await db.transaction().execute((trx) => loadRun(trx, config, found.organization_id, found.registration_id))
  const standard = run.reg.standard as ScormStandard
  const previous = await lastRuntime(db, found.registration_id, found.au_index)
  const masteryScore = run.aus[found.au_index].mastery_score
  return {
    standard,
    launchMode: found.launch_mode,
    cmi: initialCmi(standard, {
      learnerId: run.reg.user_id,
      learnerName: `${run.reg.last_name}, ${run.reg.first_name}`,
      launchMode: found.launch_mode,
      masteryScore,
      resume: suspended(standard, previous as Json | null),
    }),
  }
}

/** A commit body: scorm-again's JSON (`{cmi, terminate?}`), sent as JSON or, by the unload beacon, as text/plain. */
function parseCommit(body: unknown): { cmi: Json; terminate: boolean; auth?: string } | null {
  let parsed: unknown = body
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      parsed = JSON.parse(body.toString())
    } catch {
      return null
    }
  }
  if (typeof parsed !== 'object' || parsed === null) return null
  const { cmi, terminate, auth } = parsed as Json
  if (typeof cmi !== 'object' || cmi === null || Array.isArray(cmi)) return null
  return { cmi, terminate: terminate === true, auth: typeof auth === 'string' ? auth : undefined }
}

/**
 * One commit of a SCORM session (DECISIONS §13.4–13.5), in one transaction with the registration and
 * the session locked: the cmi kept for the next session's resume, the session's status and score, the
 * registration's SCO state and the course's satisfaction, the session's xAPI statements (each once),
 * and on the final commit (LMSFinish / Terminate) the end of the session as one attempt. A replayed
 * final commit answers `true` and changes nothing.
 */
export async function commitScorm(
  deps: LaunchDeps,
  sessionId: string,
  authorization: string | undefined,
  body: unknown,
): Promise<CommitAnswer> {
  const commit = parseCommit(body)
  if (!commit) return refused('The commit body is not scorm-again JSON with a cmi object')
  // The unload beacon cannot carry headers: it carries the credential in its body.
  const found = await credentialSession(deps.db, sessionId, authorization ?? commit.auth)
  if (!found) return refused('Not this session’s credential')
  const { config } = deps
  return deps.db.transaction().execute(async (trx) => {
    const source = { orgId: found.organization_id, actor: null, requestId: null }
    const run = await loadRun(trx, config, found.organization_id, found.registration_id)
    const session = (await lockSession(trx, found.organization_id, found.id))!
    if (session.ended_at)
      return commit.terminate && session.ended_by === 'terminated'
        ? ACCEPTED
        : refused(`This launch session has ended (${session.ended_by})`)
    if (session.expires_at <= new Date()) return refused('This launch session has expired')
    const standard = run.reg.standard as ScormStandard
    const au = run.aus[session.au_index]
    const credit = session.launch_mode === 'Normal'
    const now = scormResult(standard, commit.cmi, au.mastery_score, credit)
    // Browse and Review record nothing towards the result; the outcome only improves within a session.
    const completed = credit && (session.completed || now.completed)
    const outcome = !credit ? null : session.outcome === 'passed' ? 'passed' : (now.outcome ?? session.outcome)
    const scoreScaled = credit ? (now.scoreScaled ?? session.score_scaled) : null
    const say = scormStatements({ actor: run.learner, registration: run.reg.id, sessionId: session.id, activityId: session.activity_id })
    const answeredBefore = new Set(answeredInteractions(standard, session.runtime as Json | null).map((i) => i.index))
    const statements = [
      ...(session.initialized ? [] : [say.initialized()]),
      ...answeredInteractions(standard, commit.cmi)
        .filter((i) => !answeredBefore.has(i.index))
        .map(say.answered),
      ...(completed && !session.completed ? [say.completed()] : []),
      ...(outcome && outcome !== session.outcome ? [say.outcome(outcome, scoreScaled)] : []),
    ]
    const updated = await updateSession(trx, session.id, {
      initialized: true,
      completed,
      outcome,
      score_scaled: scoreScaled,
      runtime: JSON.stringify(commit.cmi),
      last_seen_at: new Date(),
    })
    const states = await auStates(trx, run.reg.id)
    const auBefore = states.get(session.au_index) ?? { completed: false, passed: false, waived: null }
    if ((completed && !auBefore.completed) || (outcome === 'passed' && !auBefore.passed) || outcome === 'failed') {
      run.aus = run.aus.map((a) => ({ ...a, moveOn: scoMoveOn(a.mastery_score) }))
      const before = satisfaction(run.aus, run.blocks, states)
      const after = { ...auBefore, completed: auBefore.completed || completed, passed: auBefore.passed || outcome === 'passed' }
      states.set(session.au_index, after)
      await recordAuStates(trx, run.reg.id, [
        { au_index: session.au_index, completed: after.completed, passed: after.passed, failed: outcome === 'failed' },
      ])
      await settle(trx, deps, source, run, before, states, session.id)
    }
    if (commit.terminate) {
      const ended = await endSession(trx, deps, source, run, updated, { endedBy: 'terminated', durationSeconds: now.sessionSeconds })
      statements.push(say.terminated(ended.duration_seconds ?? 0))
    }
    await writeLms(trx, config, run.reg.organization_id, statements)
    return ACCEPTED
  })
}
