import type { Db } from '../../../../db/database.js'
import { recordAuResult } from '../../launch/registration-run.js'
import { auStates, type SessionRow, updateSession } from '../../launch/sessions.queries.js'
import type { LaunchDeps, Run, SessionOutcome, Source } from '../../launch/standard.js'
import type { ScormStandard } from './scorm.schemas.js'
import { scoMoveOn, scormResult } from './scorm-runtime.js'
import { scormStatements } from './scorm-statements.js'

/**
 * A SCORM session's SCO judged from the state its session ended in (DECISIONS §13.6): the final commit's
 * cmi, or the last commit's when the session is abandoned or expires. Only here do completion, success
 * and score count: the session's result, what the registration has of the SCO (so the course's
 * satisfaction and the pass), and the `completed` and `passed` / `failed` statements, returned for the
 * caller to write with the session's others, in order. Browse and Review count towards nothing.
 */
export async function judgeScormSession(
  trx: Db,
  deps: LaunchDeps,
  source: Source,
  run: Run,
  session: SessionRow,
): Promise<SessionOutcome> {
  const cmi = session.runtime as Record<string, any> | null
  if (session.launch_mode !== 'Normal' || !cmi) return { session, statements: [] }
  const result = scormResult(run.reg.standard as ScormStandard, cmi, run.aus[session.au_index].mastery_score)
  const judged = await updateSession(trx, session.id, {
    completed: result.completed,
    outcome: result.outcome,
    score_scaled: result.scoreScaled,
  })
  // A SCO that ended failed is not satisfied by its completion, whatever its mastery score.
  const counts = {
    completed: result.completed && result.outcome !== 'failed',
    passed: result.outcome === 'passed',
    failed: result.outcome === 'failed',
  }
  if (counts.completed || counts.passed || counts.failed) {
    run.aus = run.aus.map((au) => ({ ...au, moveOn: scoMoveOn(au.mastery_score) }))
    const states = await auStates(trx, run.reg.id)
    await recordAuResult(trx, deps, source, run, states, { auIndex: session.au_index, sessionId: session.id }, counts)
  }
  const say = scormStatements({ actor: run.learner, registration: run.reg.id, sessionId: session.id, activityId: session.activity_id })
  return {
    session: judged,
    statements: [
      ...(result.completed ? [say.completed()] : []),
      ...(result.outcome ? [say.outcome(result.outcome, result.scoreScaled)] : []),
    ],
  }
}
