import type { Db } from '../../../db/database.js'
import { AppError } from '../../../lib/errors.js'
import { type LaunchDeps, loadRun, writeLms } from './registration-run.js'
import type { CommitAnswer, ScormRuntime, ScormStandard } from './scorm.schemas.js'
import { parseCommit, refused, storableCmi } from './scorm-commit.js'
import { judgeScormSession } from './scorm-results.js'
import { answeredInteractions, initialCmi, sessionSeconds, suspended } from './scorm-runtime.js'
import { scormStatements } from './scorm-statements.js'
import { KEY_PREFIX, sameHash } from './session-credentials.js'
import { closedToRecords, findSession, lastRuntime, lockSession, updateSession } from './sessions.queries.js'
import { endSession } from './sessions.service.js'

type Json = Record<string, any>

const ACCEPTED: CommitAnswer = { result: 'true' }

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

/**
 * One commit of a SCORM session (DECISIONS §13.4–13.7), in one transaction with the registration and
 * the session locked. Every commit keeps the cmi (for the next session's resume and the record) and
 * the `initialized` and `answered` statements (each once); only the final one (LMSFinish / Terminate)
 * judges the SCO, from the state it ends in (§13.6), and ends the session as one attempt. A replayed
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
  return deps.db.transaction().execute(async (trx) => {
    const source = { orgId: found.organization_id, actor: null, requestId: null }
    const run = await loadRun(trx, deps.config, found.organization_id, found.registration_id)
    const session = (await lockSession(trx, found.organization_id, found.id))!
    if (session.ended_at)
      return commit.terminate && session.ended_by === 'terminated'
        ? ACCEPTED
        : refused(`This launch session has ended (${session.ended_by})`)
    if (closedToRecords(session)) return refused('This launch session has expired')
    const standard = run.reg.standard as ScormStandard
    const kept = storableCmi(standard, commit.cmi)
    if ('refused' in kept) return kept.refused
    const say = scormStatements({ actor: run.learner, registration: run.reg.id, sessionId: session.id, activityId: session.activity_id })
    const answeredBefore = new Set(answeredInteractions(standard, session.runtime as Json | null).map((i) => i.index))
    const statements: unknown[] = [
      ...(session.initialized ? [] : [say.initialized()]),
      ...answeredInteractions(standard, kept.cmi)
        .filter((i) => !answeredBefore.has(i.index))
        .map(say.answered),
    ]
    const updated = await updateSession(trx, session.id, { initialized: true, runtime: JSON.stringify(kept.cmi), last_seen_at: new Date() })
    if (commit.terminate) {
      const judged = await judgeScormSession(trx, deps, source, run, updated)
      const durationSeconds = sessionSeconds(standard, kept.cmi)
      const ended = await endSession(trx, deps, source, run, judged.session, { endedBy: 'terminated', durationSeconds })
      statements.push(...judged.statements, say.terminated(ended.duration_seconds ?? 0))
    }
    await writeLms(trx, deps.config, run.reg.organization_id, statements)
    return ACCEPTED
  })
}
