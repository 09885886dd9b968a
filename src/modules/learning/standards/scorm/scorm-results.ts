import type { Db } from '../../../../db/database.js'
import { meetsMoveOn } from '../../launch/move-on.js'
import { recordAuResult } from '../../launch/registration-run.js'
import { passRegistration } from '../../launch/results.queries.js'
import { auStates, recordAuStates, type SessionRow, updateSession } from '../../launch/sessions.queries.js'
import type { LaunchDeps, Run, SessionOutcome, Source } from '../../launch/standard.js'
import type { ActivityNode } from '../../packages/package-model.js'
import type { ScormStandard } from './scorm.schemas.js'
import { type LeafOutcome, rolledUp } from './scorm-rollup.js'
import { scoMoveOn, scormResult } from './scorm-runtime.js'
import { lastOutcomes, packageTree } from './scorm-sequencing.queries.js'
import { scormStatements } from './scorm-statements.js'

type Counts = { completed: boolean; passed: boolean; failed: boolean }

/**
 * A SCORM session's SCO judged from the state its session ended in (DECISIONS §13.6): the final commit's
 * cmi, or the last commit's when the session is abandoned or expires. Only here do completion, success
 * and score count: the session's result, what the registration has of the SCO (so the course's
 * satisfaction and the pass), and the `completed` and `passed` / `failed` statements, returned for the
 * caller to write with the session's others, in order. Browse and Review count towards nothing.
 */
export async function judgeScormSession(trx: Db, deps: LaunchDeps, source: Source, run: Run, session: SessionRow): Promise<SessionOutcome> {
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
    const tree = run.aus.length > 1 ? await packageTree(trx, run.packageId) : null
    if (tree) await rollUpCourse(trx, deps, source, run, judged, counts, tree)
    else
      await recordAuResult(
        trx,
        deps,
        source,
        run,
        await auStates(trx, run.reg.id),
        { auIndex: session.au_index, sessionId: session.id },
        counts,
      )
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

/**
 * A SCORM 2004 course of several SCOs (DECISIONS §13.6): the SCO's flags are recorded, and the course is
 * decided by the root activity's rollup over each SCO's last judged session (this one included), not by
 * every SCO meeting its own rule. A SCO is satisfied as §13.6 says (passed, or completed without a
 * passing score); the course passes when the root is satisfied, or completed with satisfaction unknown.
 */
async function rollUpCourse(trx: Db, deps: LaunchDeps, source: Source, run: Run, session: SessionRow, counts: Counts, tree: ActivityNode) {
  const satisfied = (auIndex: number, state: { completed: boolean; passed: boolean; failed: boolean }): boolean | null =>
    state.failed ? false : meetsMoveOn(run.aus[auIndex].moveOn, { ...state, waived: null }) ? true : null
  await recordAuStates(trx, run.reg.id, [
    { au_index: session.au_index, ...counts, satisfied: satisfied(session.au_index, counts) === true },
  ])
  const leaves = new Map<string, LeafOutcome>()
  const outcomes = [
    ...(await lastOutcomes(trx, run.reg.id)).filter((row) => row.au_index !== session.au_index),
    { au_index: session.au_index, completed: session.completed, outcome: session.outcome },
  ]
  for (const row of outcomes) {
    const au = run.aus[row.au_index]
    const state = {
      completed: row.completed && row.outcome !== 'failed',
      passed: row.outcome === 'passed',
      failed: row.outcome === 'failed',
    }
    if (au) leaves.set(au.publisher_id, { completed: row.completed, satisfied: satisfied(row.au_index, state) })
  }
  const root = await rolledUp(tree, leaves)
  if (root.satisfied === true || (root.satisfied === null && root.completed))
    run.reg = { ...run.reg, ...(await passRegistration(trx, source, run.reg, session.id, deps.config.expiringSoonDays)) }
}
