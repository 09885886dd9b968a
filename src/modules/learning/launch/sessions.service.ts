import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { conflict, notFound } from '../../../lib/errors.js'
import { loadRun, writeLms } from './registration-run.js'
import { recordSessionAttempt } from './results.queries.js'
import { endSessionRow, lockSession, openSessions, type SessionRow, sessionRegistrationId, toLearningSession } from './sessions.queries.js'
import type { LaunchDeps, Run, Source } from './standard.js'

// The end of a launch session (DECISIONS §13.4–13.5): by the AU, or abandoned by a new launch, an admin
// or the expiry sweep.

const secondsBetween = (from: Date, to: Date) => Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000))

/**
 * Ends a session (DECISIONS §13.4–13.5): `terminated` by its content, or `abandoned` (a new launch, the
 * sweep, an admin), which the LMS records with its duration, launch to last step (cmi5 §9.5.4.2).
 * Either way it is one attempt of the registration, with the result its standard decides (a SCORM SCO
 * abandoned is judged from its last commit, §13.6; a terminated one was judged by its own step).
 */
export async function endSession(
  trx: Db,
  deps: LaunchDeps,
  source: Source,
  run: Run,
  session: SessionRow,
  how: { endedBy: 'terminated' | 'abandoned'; durationSeconds?: number | null },
): Promise<SessionRow> {
  const seconds = Math.round(how.durationSeconds ?? secondsBetween(session.created_at, session.last_seen_at ?? session.created_at))
  const decided = await run.standard.outcome.sessionEnds(trx, deps, source, run, session, { endedBy: how.endedBy, seconds })
  const ended = await endSessionRow(trx, source, session.id, { endedBy: how.endedBy, durationSeconds: seconds })
  await writeLms(trx, deps.config, run.reg.organization_id, decided.statements)
  const { outcome, score_scaled: scoreScaled } = decided.session
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
export async function abandonOpen(trx: Db, deps: LaunchDeps, source: Source, run: Run) {
  for (const session of await openSessions(trx, run.reg.id)) await endSession(trx, deps, source, run, session, { endedBy: 'abandoned' })
}

/** An admin or office admin abandons an open session (DECISIONS §13.4). */
export async function abandonSession(deps: LaunchDeps, actor: Actor, sessionId: string) {
  return deps.db.transaction().execute(async (trx) => {
    const registrationId = await sessionRegistrationId(trx, actor.orgId, sessionId)
    if (!registrationId) throw notFound('Session')
    // The registration first, then the session: the order every writer of a session takes.
    const run = await loadRun(trx, deps, actor.orgId, registrationId)
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
      const run = await loadRun(trx, deps, orgId, registration_id)
      const session = await lockSession(trx, orgId, id)
      if (!session || session.ended_at) return
      await endSession(trx, deps, { orgId, actor: null, requestId: null }, run, session, { endedBy: 'abandoned' })
    })
  }
}
