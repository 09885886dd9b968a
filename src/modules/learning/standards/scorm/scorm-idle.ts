import { AppError, conflict } from '../../../../lib/errors.js'
import { lockStep } from '../../launch/registration-run.js'
import { credentialSession } from '../../launch/session-credentials.js'
import { endSession } from '../../launch/sessions.service.js'
import type { LaunchDeps } from '../../launch/standard.js'
import type { IdleAnswer } from './scorm.schemas.js'

/**
 * A SCO that has not called the API within SCORM_IDLE_SECONDS of its session's launch (DECISIONS §13.6):
 * its player shows the learner that the content is not responding and asks for this, and the session
 * ends as abandoned, one attempt with nothing judged. The service checks the rule itself (never
 * initialized, launched long enough ago), so a player cannot end a SCO that is working.
 */
export async function abandonIdle(deps: LaunchDeps, sessionId: string, authorization: string | undefined): Promise<IdleAnswer> {
  const found = await credentialSession(deps.db, authorization, sessionId)
  if (!found) throw new AppError(401, 'Not this session’s credential', { 'www-authenticate': 'Basic realm="launch session"' })
  return deps.db.transaction().execute(async (trx) => {
    const { run, session } = await lockStep(trx, deps, found)
    // Found by its credential above: a session is never deleted.
    const open = session!
    if (open.ended_at) throw conflict(`This launch session has already ended (${open.ended_by})`)
    if (open.initialized) throw conflict('The content has called the API: it is not idle')
    const idleFor = (Date.now() - open.created_at.getTime()) / 1000
    if (idleFor < deps.config.scormIdleSeconds) throw conflict(`The content may take ${deps.config.scormIdleSeconds} seconds to start`)
    const source = { orgId: open.organization_id, actor: null, requestId: null }
    const ended = await endSession(trx, deps, source, run, open, { endedBy: 'abandoned' })
    return { endedBy: ended.ended_by ?? 'abandoned' }
  })
}
