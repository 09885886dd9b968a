import { AppError } from '../../../../lib/errors.js'
import { loadRun, lockStep, writeLms } from '../../launch/registration-run.js'
import { closedReason, credentialSession } from '../../launch/session-credentials.js'
import { lastRuntime, updateSession } from '../../launch/sessions.queries.js'
import { endSession } from '../../launch/sessions.service.js'
import type { LaunchDeps } from '../../launch/standard.js'
import type { CommitAnswer, ScormRuntime, ScormStandard } from './scorm.schemas.js'
import { parseCommit, refused, storableCmi } from './scorm-commit.js'
import { judgeScormSession } from './scorm-results.js'
import { answeredInteractions, initialCmi, sessionSeconds, suspended } from './scorm-runtime.js'
import { sequencedTree, sequencingRuntime } from './scorm-sequencing.service.js'
import { scormStatements } from './scorm-statements.js'

type Json = Record<string, any>

const ACCEPTED: CommitAnswer = { result: 'true' }

/**
 * What the player loads before the SCO starts (DECISIONS §13.4, §13.6): the standard, whether the item is
 * an asset, and the cmi for scorm-again's loadFromJSON (learner, mode, credit, mastery score, objectives,
 * and where the last session of this SCO left off).
 */
export async function scormRuntime(deps: LaunchDeps, sessionId: string, authorization: string | undefined): Promise<ScormRuntime> {
  const { db } = deps
  // The player's credential is for its own session's URLs only.
  const found = await credentialSession(db, authorization, sessionId)
  if (!found) throw new AppError(401, 'Not this session’s credential', { 'www-authenticate': 'Basic realm="launch session"' })
  const closed = closedReason(found)
  if (closed) throw new AppError(403, found.ended_at ? closed : `${closed}; launch the course again`)
  const run = await db.transaction().execute((trx) => loadRun(trx, deps, found.organization_id, found.registration_id))
  const standard = run.reg.standard as ScormStandard
  const previous = await lastRuntime(db, found.registration_id, found.au_index)
  const au = run.aus[found.au_index]
  const tree = await sequencedTree(db, run)
  return {
    standard,
    auIndex: found.au_index,
    idleSeconds: deps.config.scormIdleSeconds,
    ...(tree && { sequencing: await sequencingRuntime(db, run, tree) }),
    launchMode: found.launch_mode,
    asset: au.scorm_asset,
    cmi: initialCmi(standard, {
      learnerId: run.reg.user_id,
      learnerName: `${run.reg.last_name}, ${run.reg.first_name}`,
      launchMode: found.launch_mode,
      masteryScore: au.mastery_score,
      resume: suspended(standard, previous as Json | null),
      objectiveIds: au.objective_ids,
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
  const found = await credentialSession(deps.db, authorization ?? commit.auth, sessionId)
  if (!found) return refused('Not this session’s credential')
  return deps.db.transaction().execute(async (trx) => {
    const source = { orgId: found.organization_id, actor: null, requestId: null }
    const step = await lockStep(trx, deps, found)
    // Found by its credential above: a session is never deleted.
    const [run, session] = [step.run, step.session!]
    const closed = closedReason(session)
    if (session.ended_at && commit.terminate && session.ended_by === 'terminated') return ACCEPTED
    if (closed) return refused(closed)
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
