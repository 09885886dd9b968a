import { randomUUID } from 'node:crypto'
import type { Actor } from '../../../lib/access.js'
import { conflict, invalid } from '../../../lib/errors.js'
import { toRegistration } from '../registrations/registrations.queries.js'
import { hashSecret } from '../xapi/auth.js'
import type { Launch, LaunchCreate, Waive } from './launch.schemas.js'
import { satisfaction } from './move-on.js'
import { auActivityId, enter, loadRun, newSecret, settle, writeLms } from './registration-run.js'
import { recordWaiver } from './results.queries.js'
import { auStates, insertSession, recordAuStates } from './sessions.queries.js'
import { abandonOpen } from './sessions.service.js'
import type { LaunchDeps } from './standard.js'

// The launch and the waive of an AU (DECISIONS §13.4), as launch.routes.ts calls them. A session's end
// is in sessions.service.ts; the registration's lock and satisfaction, which every change shares, in
// registration-run.ts; what differs between standards, in each standard's folder (standards/).

/** How long a session lasts, and until when it takes records. */
export interface SessionWindow {
  expiresAt: Date
  acceptsUntil: Date
}

/**
 * Launches an AU or SCO of the registration (DECISIONS §13.4): abandons the session before, enters
 * the package version, opens a session and lets its standard prepare it (cmi5: LMS.LaunchData and
 * `launched`) before answering the URL. Crew launch their own registrations (`assigneeId`). The session lasts
 * LAUNCH_SESSION_MINUTES and takes records until then, unless `window` says otherwise (offline play, DECISIONS §16).
 */
export async function launch(
  deps: LaunchDeps,
  actor: Actor,
  registrationId: string,
  assigneeId: string | undefined,
  body: LaunchCreate,
  window?: SessionWindow,
): Promise<Launch> {
  const { db, config } = deps
  return db.transaction().execute(async (trx) => {
    const run = await loadRun(trx, deps, actor.orgId, registrationId, assigneeId)
    const au = run.aus[body.auIndex]
    if (!au)
      throw invalid(
        ['body', 'auIndex'],
        `This course has ${run.aus.length} AU${run.aus.length === 1 ? '' : 's'}: 0 to ${run.aus.length - 1}`,
      )
    await abandonOpen(trx, deps, actor, run)
    const sessionId = randomUUID()
    await enter(trx, deps, actor, run, await auStates(trx, run.reg.id), sessionId)
    const expiresAt = window?.expiresAt ?? new Date(Date.now() + config.launchSessionMinutes * 60_000)
    const activityId = auActivityId(config.publicUrl, run.reg.id, body.auIndex)
    const secret = newSecret()
    // The session's credential is given at launch (a player holds it) or made by a one-time fetch (cmi5).
    const atLaunch = run.standard.launch.credential === 'launch'
    await insertSession(trx, {
      id: sessionId,
      organization_id: actor.orgId,
      registration_id: run.reg.id,
      package_id: run.packageId,
      au_index: body.auIndex,
      launch_mode: body.launchMode,
      activity_id: activityId,
      secret_hash: atLaunch ? hashSecret(secret) : null,
      fetch_hash: atLaunch ? null : hashSecret(secret),
      expires_at: expiresAt,
      accepts_until: window?.acceptsUntil ?? null,
    })
    const grant = { orgId: actor.orgId, packageId: run.packageId, sessionId, expiresAt }
    const step = { sessionId, activityId, launchMode: body.launchMode, returnUrl: body.returnUrl, secret, grant }
    const url = await run.standard.launch.prepare(trx, deps, run, au, step)
    return {
      sessionId,
      url,
      standard: run.reg.standard as Launch['standard'],
      launchMethod: au.launch_method as Launch['launchMethod'],
      expiresAt: expiresAt.toISOString(),
    }
  })
}

/**
 * An admin or office admin waives an AU (DECISIONS §13.4, cmi5 §9.3.7): its standard's statements
 * (cmi5's `waived`) in a session of its own, then what that satisfies, which may pass the registration.
 */
export async function waive(deps: LaunchDeps, actor: Actor, registrationId: string, body: Waive) {
  const { db, config } = deps
  return db.transaction().execute(async (trx) => {
    const run = await loadRun(trx, deps, actor.orgId, registrationId)
    const au = run.aus[body.auIndex]
    if (!au) throw invalid(['body', 'auIndex'], `This course has ${run.aus.length} AU${run.aus.length === 1 ? '' : 's'}`)
    const sessionId = randomUUID()
    const states = await auStates(trx, run.reg.id)
    await enter(trx, deps, actor, run, states, sessionId)
    if (states.get(body.auIndex)?.waived) throw conflict('This AU is already waived for this registration')
    const before = satisfaction(run.aus, run.blocks, states)
    states.set(body.auIndex, { ...(states.get(body.auIndex) ?? { completed: false, passed: false }), waived: body.reason })
    await recordAuStates(trx, run.reg.id, [{ au_index: body.auIndex, waived: body.reason }])
    await writeLms(trx, config, actor.orgId, run.standard.outcome.waived(config, run, sessionId, body))
    await settle(trx, deps, actor, run, before, states, sessionId)
    await recordWaiver(trx, actor, run.reg.id, body)
    return toRegistration(run.reg)
  })
}
