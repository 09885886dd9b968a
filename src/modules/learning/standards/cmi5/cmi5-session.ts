import type { Db } from '../../../../db/database.js'
import { lockStep, recordAuResult } from '../../launch/registration-run.js'
import { auStates, recordLaunchDataRead, updateSession } from '../../launch/sessions.queries.js'
import { endSession } from '../../launch/sessions.service.js'
import type { LrsStep } from '../../launch/standard.js'
import { XapiError } from '../../xapi/errors.js'
import { assertValidStatement, normalizeStatement } from '../../xapi/statement-rules.js'
import { LAUNCH_DATA } from './cmi5.js'
import { applyAuStatements } from './cmi5-rules.js'

/**
 * cmi5's runtime step: an AU's statements at the LRS under its session's credential, checked against
 * cmi5's statement rules (§9.3) in one transaction with the registration and the session locked, and
 * what they change: the session, the registration's AU, moveOn, the end.
 */
export const cmi5Lrs: LrsStep = {
  lmsStates: [LAUNCH_DATA],
  async statements(deps, found, statements, storeAll) {
    const { db: trx } = deps
    const source = { orgId: found.organization_id, actor: null, requestId: null }
    const { run, session } = await lockStep(trx, deps, found)
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
    const before = {
      session: {
        initialized: session.initialized,
        completed: session.completed,
        outcome: session.outcome,
        terminated: false,
        scoreScaled: session.score_scaled,
        durationSeconds: null,
      },
      au: auBefore,
    }
    const after = applyAuStatements(launch, before, checked)
    const ids = await storeAll()
    const updated = await updateSession(trx, session.id, {
      initialized: after.session.initialized,
      completed: after.session.completed,
      outcome: after.session.outcome,
      score_scaled: after.session.scoreScaled,
      last_seen_at: new Date(),
    })
    const failed = after.session.outcome === 'failed'
    if (after.au.completed !== auBefore.completed || after.au.passed !== auBefore.passed || failed) {
      const result = { completed: after.au.completed, passed: after.au.passed, failed }
      await recordAuResult(trx, deps, source, run, states, { auIndex: session.au_index, sessionId: session.id }, result)
    }
    if (after.session.terminated) {
      await endSession(trx, deps, source, run, updated, { endedBy: 'terminated', durationSeconds: after.session.durationSeconds })
    }
    return ids
  },
  // cmi5 §10: the LMS records that the AU has read its LMS.LaunchData (the rules ask for it before initialized).
  async stateRead(db: Db, sessionId, stateId) {
    if (stateId === LAUNCH_DATA) await recordLaunchDataRead(db, sessionId)
  },
}
