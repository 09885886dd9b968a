import { randomUUID } from 'node:crypto'
import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { conflict, invalid } from '../../../lib/errors.js'
import { contentPaths } from '../content/content.paths.js'
import { toRegistration } from '../registrations/registrations.queries.js'
import { hashSecret } from '../xapi/auth.js'
import { writeStateDocument } from '../xapi/documents.js'
import { LAUNCH_DATA } from '../xapi/session.js'
import { contextTemplate, EXTENSION, lmsIds, lmsStatement } from './cmi5.js'
import type { Launch, LaunchCreate, Waive } from './launch.schemas.js'
import { satisfaction } from './move-on.js'
import { recordWaiver } from './results.queries.js'
import { enter, type LaunchDeps, loadRun, newSecret, type Run, settle, statementContext, writeLms } from './registration-run.js'
import { type AuRow, auStates, insertSession, recordAuStates } from './sessions.queries.js'
import { abandonOpen } from './sessions.service.js'

// The launch and the waive of an AU (DECISIONS §13.4), as launch.routes.ts calls them. A session's end
// is in sessions.service.ts; the registration's lock and satisfaction, which every change shares, in
// registration-run.ts.

/** How long a session lasts, and until when it takes records. */
export interface SessionWindow {
  expiresAt: Date
  acceptsUntil: Date
}

/**
 * Launches an AU or SCO of the registration (DECISIONS §13.4): abandons the session before, enters
 * the package version, opens a session and, for cmi5, writes LMS.LaunchData and `launched` before
 * answering the URL. Crew launch their own registrations (`assigneeId`). The session lasts
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
    const run = await loadRun(trx, config, actor.orgId, registrationId, assigneeId)
    const au = run.aus[body.auIndex]
    if (!au)
      throw invalid(
        ['body', 'auIndex'],
        `This course has ${run.aus.length} AU${run.aus.length === 1 ? '' : 's'}: 0 to ${run.aus.length - 1}`,
      )
    await abandonOpen(trx, deps, actor, run)
    const sessionId = randomUUID()
    await enter(trx, deps, actor, run, await auStates(trx, run.reg.id), sessionId)
    const standard = run.reg.standard as Launch['standard']
    const expiresAt = window?.expiresAt ?? new Date(Date.now() + config.launchSessionMinutes * 60_000)
    const activityId = lmsIds(config.publicUrl).au(run.reg.id, body.auIndex)
    const secret = newSecret()
    const fetchSecret = newSecret()
    await insertSession(trx, {
      id: sessionId,
      organization_id: actor.orgId,
      registration_id: run.reg.id,
      package_id: run.packageId,
      au_index: body.auIndex,
      launch_mode: body.launchMode,
      activity_id: activityId,
      // cmi5: the credential is made by the one-time fetch; SCORM: the player holds it from the launch.
      secret_hash: standard === 'cmi5' ? null : hashSecret(secret),
      fetch_hash: standard === 'cmi5' ? hashSecret(fetchSecret) : null,
      expires_at: expiresAt,
      accepts_until: window?.acceptsUntil ?? null,
    })
    const paths = contentPaths(config)
    const grant = { orgId: actor.orgId, packageId: run.packageId, sessionId, expiresAt }
    const auUrl = URL.canParse(au.url) ? au.url : paths.url(grant, au.url)
    const url =
      standard === 'cmi5'
        ? await prepareCmi5(trx, deps, run, au, {
            sessionId,
            activityId,
            auUrl,
            launchMode: body.launchMode,
            returnUrl: body.returnUrl,
            fetchSecret,
          })
        : paths.player(grant, au.url, { sessionId, secret, standard, endpoint: config.publicUrl })
    return { sessionId, url, standard, launchMethod: au.launch_method as Launch['launchMethod'], expiresAt: expiresAt.toISOString() }
  })
}

/** cmi5 before launch (§10, §9.3.1): LMS.LaunchData, then `launched`; answers the launch URL. */
async function prepareCmi5(
  trx: Db,
  { config }: LaunchDeps,
  run: Run,
  au: AuRow,
  s: { sessionId: string; activityId: string; auUrl: string; launchMode: string; returnUrl?: string; fetchSecret: string },
) {
  const orgId = run.reg.organization_id
  const launchData = {
    contextTemplate: contextTemplate(s.sessionId, au.publisher_id),
    launchMode: s.launchMode,
    moveOn: au.moveOn,
    ...(au.mastery_score !== null && { masteryScore: au.mastery_score }),
    ...(au.launch_parameters !== null && { launchParameters: au.launch_parameters }),
    ...(au.entitlement_key !== null && { entitlementKey: { courseStructure: au.entitlement_key } }),
    ...(s.returnUrl && { returnURL: s.returnUrl }),
  }
  await writeStateDocument(trx, orgId, {
    activityId: s.activityId,
    agent: run.learner,
    registration: run.reg.id,
    stateId: LAUNCH_DATA,
    content: launchData,
  })
  const extensions = {
    [EXTENSION.launchMode]: s.launchMode,
    [EXTENSION.launchUrl]: s.auUrl,
    [EXTENSION.moveOn]: au.moveOn,
    ...(au.mastery_score !== null && { [EXTENSION.masteryScore]: au.mastery_score }),
    ...(au.launch_parameters !== null && { [EXTENSION.launchParameters]: au.launch_parameters }),
  }
  await writeLms(trx, config, orgId, [
    lmsStatement(statementContext(run, s.sessionId, au), 'launched', { id: s.activityId }, { extensions }),
  ])
  return cmi5Url(s.auUrl, {
    endpoint: `${config.publicUrl}/api/v1/learn/xapi/`,
    fetch: `${config.publicUrl}/api/v1/learn/cmi5/fetch/${s.sessionId}.${s.fetchSecret}`,
    actor: JSON.stringify(run.learner),
    registration: run.reg.id,
    activityId: s.activityId,
  })
}

/** The AU URL with cmi5's launch parameters (§8.1), each URL-encoded, after any query it already has. */
function cmi5Url(base: string, params: Record<string, string>) {
  const query = Object.entries(params)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&')
  const [path, fragment] = base.split('#', 2)
  return `${path}${path.includes('?') ? '&' : '?'}${query}${fragment === undefined ? '' : `#${fragment}`}`
}

/**
 * An admin or office admin waives an AU (DECISIONS §13.4, cmi5 §9.3.7): `waived` in a session of its
 * own, then `satisfied` where that completes a block or the course, which passes the registration.
 */
export async function waive(deps: LaunchDeps, actor: Actor, registrationId: string, body: Waive) {
  const { db, config } = deps
  return db.transaction().execute(async (trx) => {
    const run = await loadRun(trx, config, actor.orgId, registrationId)
    const au = run.aus[body.auIndex]
    if (!au) throw invalid(['body', 'auIndex'], `This course has ${run.aus.length} AU${run.aus.length === 1 ? '' : 's'}`)
    const sessionId = randomUUID()
    const states = await auStates(trx, run.reg.id)
    await enter(trx, deps, actor, run, states, sessionId)
    if (states.get(body.auIndex)?.waived) throw conflict('This AU is already waived for this registration')
    const before = satisfaction(run.aus, run.blocks, states)
    states.set(body.auIndex, { ...(states.get(body.auIndex) ?? { completed: false, passed: false }), waived: body.reason })
    await recordAuStates(trx, run.reg.id, [{ au_index: body.auIndex, waived: body.reason }])
    if (run.reg.standard === 'cmi5') {
      const at = statementContext(run, sessionId, au)
      const waived = lmsStatement(
        at,
        'waived',
        { id: lmsIds(config.publicUrl).au(run.reg.id, body.auIndex) },
        { result: { success: true, completion: true, extensions: { [EXTENSION.reason]: body.reason } }, moveOn: true },
      )
      await writeLms(trx, config, actor.orgId, [waived])
    }
    await settle(trx, deps, actor, run, before, states, sessionId)
    await recordWaiver(trx, actor, run.reg.id, body)
    return toRegistration(run.reg)
  })
}
