import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { conflict, notFound } from '../../../lib/errors.js'
import type { EventSource } from '../../../lib/events.js'
import { durationResult, lmsStatement } from '../standards/cmi5/cmi5.js'
import { type LaunchDeps, loadRun, type Run, statementContext, writeLms } from './registration-run.js'
import { recordSessionAttempt } from './results.queries.js'
import { judgeScormSession } from '../standards/scorm/scorm-results.js'
import { endSessionRow, lockSession, openSessions, type SessionRow, sessionRegistrationId, toLearningSession } from './sessions.queries.js'

// The end of a launch session (DECISIONS §13.4–13.5): by the AU, or abandoned by a new launch, an admin
// or the expiry sweep.

const secondsBetween = (from: Date, to: Date) => Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000))

/**
 * Ends a session (DECISIONS §13.4–13.5): `terminated` by the AU, or `abandoned` (a new launch, the
 * sweep, an admin), which the LMS records with its duration, launch to last statement (cmi5 §9.5.4.2).
 * Either way it is one attempt of the registration. An abandoned SCORM session's SCO is judged from its
 * last commit (§13.6); a terminated one was judged from its final commit by the caller.
 */
export async function endSession(
  trx: Db,
  deps: LaunchDeps,
  source: EventSource | Actor,
  run: Run,
  session: SessionRow,
  how: { endedBy: 'terminated' | 'abandoned'; durationSeconds?: number | null },
): Promise<SessionRow> {
  const seconds = Math.round(how.durationSeconds ?? secondsBetween(session.created_at, session.last_seen_at ?? session.created_at))
  const abandonedScorm = how.endedBy === 'abandoned' && run.reg.standard !== 'cmi5'
  const judged = abandonedScorm ? await judgeScormSession(trx, deps, source, run, session) : { session, statements: [] }
  const ended = await endSessionRow(trx, source, session.id, { endedBy: how.endedBy, durationSeconds: seconds })
  if (how.endedBy === 'abandoned') {
    const at = statementContext(run, session.id, run.aus[session.au_index])
    const statements =
      run.reg.standard === 'cmi5'
        ? [lmsStatement(at, 'abandoned', { id: session.activity_id }, { result: durationResult(seconds) })]
        : judged.statements
    await writeLms(trx, deps.config, run.reg.organization_id, statements)
  }
  const { outcome, score_scaled: scoreScaled } = judged.session
  const updated = await recordSessionAttempt(trx, source, run.reg, {
    id: session.id,
    failed: outcome === 'failed',
    scorePercent: scoreScaled === null ? null : Math.round(scoreScaled * 100),
    seconds,
  })
  run.reg = { ...run.reg, ...updated }
  return ended
}

/** Abandons the registration's sessions still open: a new launch ends the one before (cmi5 §9.3.6). */
export async function abandonOpen(trx: Db, deps: LaunchDeps, source: EventSource | Actor, run: Run) {
  for (const session of await openSessions(trx, run.reg.id)) await endSession(trx, deps, source, run, session, { endedBy: 'abandoned' })
}

/** An admin or office admin abandons an open session (DECISIONS §13.4). */
export async function abandonSession(deps: LaunchDeps, actor: Actor, sessionId: string) {
  const { db, config } = deps
  return db.transaction().execute(async (trx) => {
    const registrationId = await sessionRegistrationId(trx, actor.orgId, sessionId)
    if (!registrationId) throw notFound('Session')
    // The registration first, then the session: the order every writer of a session takes.
    const run = await loadRun(trx, config, actor.orgId, registrationId)
    const session = (await lockSession(trx, actor.orgId, sessionId))!
    if (session.ended_at) throw conflict('This session has already ended')
    return toLearningSession(await endSession(trx, deps, actor, run, session, { endedBy: 'abandoned' }))
  })
}

/** Open sessions past their expiry are abandoned (the job queue's sweep), each in its own transaction. */
export async function abandonExpired(
  deps: LaunchDeps,
  expired: readonly { id: string; organization_id: string; registration_id: string }[],
) {
  for (const { id, organization_id: orgId, registration_id } of expired) {
    await deps.db.transaction().execute(async (trx) => {
      const run = await loadRun(trx, deps.config, orgId, registration_id)
      const session = await lockSession(trx, orgId, id)
      if (!session || session.ended_at) return
      await endSession(trx, deps, { orgId, actor: null, requestId: null }, run, session, { endedBy: 'abandoned' })
    })
  }
}
