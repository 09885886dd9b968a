import { randomBytes, randomUUID } from 'node:crypto'
import type { Config } from '../../config.js'
import type { Db } from '../../db/database.js'
import type { Actor } from '../../lib/access.js'
import { conflict, invalid, notFound } from '../../lib/errors.js'
import type { EventSource } from '../../lib/events.js'
import { contentPaths } from '../content/content.paths.js'
import type { PackageBlock } from '../packages/package-model.js'
import { toRegistration } from '../registrations/registrations.queries.js'
import type { XapiAgent } from '../xapi/agents.js'
import { hashSecret } from '../xapi/auth.js'
import { writeStateDocument } from '../xapi/documents.js'
import { LAUNCH_DATA } from '../xapi/session.js'
import { storeStatements } from '../xapi/store.js'
import {
  BLOCK_TYPE,
  COURSE_TYPE,
  contextTemplate,
  durationResult,
  EXTENSION,
  type LmsStatementContext,
  lmsIds,
  lmsStatement,
} from './cmi5.js'
import type { Launch, LaunchCreate, Waive } from './launch.schemas.js'
import { type AuState, satisfaction } from './move-on.js'
import { passRegistration, recordSessionAttempt, recordWaiver } from './results.queries.js'
import {
  type AuRow,
  auStates,
  endSessionRow,
  insertSession,
  type LockedRegistration,
  lockRegistration,
  lockSession,
  openSessions,
  packageAus,
  recordAuStates,
  type SessionRow,
  toLearningSession,
} from './sessions.queries.js'

export interface LaunchDeps {
  db: Db
  config: Config
}

/** A registration locked for a change, with the package version it runs on. */
export interface Run {
  reg: LockedRegistration
  packageId: string
  aus: AuRow[]
  blocks: PackageBlock[]
  learner: XapiAgent
}

export const newSecret = () => randomBytes(32).toString('base64url')

/** The actor of a person (DECISIONS §13.4): an account on the service's public URL named by the user id. */
export const learnerAgent = (publicUrl: string, user: { id: string; first_name: string; last_name: string }): XapiAgent => ({
  objectType: 'Agent',
  account: { homePage: publicUrl, name: user.id },
  name: `${user.first_name} ${user.last_name}`,
})

/** The authority of what the LMS writes itself (launched, satisfied, abandoned, waived). */
const lmsAuthority = (config: Config): XapiAgent => ({
  objectType: 'Agent',
  name: 'Seaworthy',
  account: { homePage: config.publicUrl, name: 'lms' },
})

export const writeLms = (trx: Db, config: Config, orgId: string, statements: unknown[]) =>
  statements.length === 0 ? Promise.resolve([]) : storeStatements(trx, orgId, statements, { authority: lmsAuthority(config), credentialId: null })

/** Locks the registration (crew: only their own) and loads the package version it runs on. */
export async function loadRun(trx: Db, config: Config, orgId: string, registrationId: string, assigneeId?: string): Promise<Run> {
  const reg = await lockRegistration(trx, orgId, registrationId, assigneeId)
  if (!reg) throw notFound('Registration')
  if (!reg.run_package_id) throw conflict('This course has no package to launch')
  return {
    reg,
    packageId: reg.run_package_id,
    aus: await packageAus(trx, reg.run_package_id),
    blocks: (reg.blocks ?? []) as PackageBlock[],
    learner: learnerAgent(config.publicUrl, { id: reg.user_id, first_name: reg.first_name, last_name: reg.last_name }),
  }
}

const statementContext = (run: Run, sessionId: string, au?: AuRow): LmsStatementContext => ({
  actor: run.learner,
  registration: run.reg.id,
  sessionId,
  publisherId: au?.publisher_id ?? run.reg.publisher_id ?? run.packageId,
})

/**
 * The registration enters its package version on its first launch or waive: it keeps that version
 * from then on, and moveOn is evaluated at once (cmi5 §9.6.1.1: NotApplicable AUs are satisfied at
 * registration, which may satisfy blocks or the whole course).
 */
async function enter(trx: Db, deps: LaunchDeps, source: EventSource | Actor, run: Run, states: Map<number, AuState>, sessionId: string) {
  if (run.reg.package_id !== null) return
  const entered = await trx
    .updateTable('registrations')
    .set({
      package_id: run.packageId,
      status: run.reg.status === 'not_started' ? 'in_progress' : run.reg.status,
    })
    .where('id', '=', run.reg.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  const before = satisfaction(
    run.aus.map(() => ({ moveOn: 'Passed' as const })),
    run.blocks,
    new Map(),
  )
  run.reg = { ...run.reg, ...entered }
  await settle(trx, deps, source, run, before, states, sessionId)
}

/**
 * After what the registration has of its AUs changed (from `before`): record the AUs now satisfied,
 * announce each block and the course newly satisfied with `satisfied` (cmi5 §9.3.9, in the session
 * that caused it), and pass the registration when the course is.
 */
export async function settle(
  trx: Db,
  { config }: LaunchDeps,
  source: EventSource | Actor,
  run: Run,
  before: ReturnType<typeof satisfaction>,
  states: Map<number, AuState>,
  sessionId: string,
) {
  const after = satisfaction(run.aus, run.blocks, states)
  await recordAuStates(
    trx,
    run.reg.id,
    after.aus.flatMap((satisfied, index) => (satisfied && !before.aus[index] ? [{ au_index: index, satisfied: true }] : [])),
  )
  const ids = lmsIds(config.publicUrl)
  const at = statementContext(run, sessionId)
  const statements = [
    ...run.blocks.flatMap((_, index) =>
      after.blocks[index] && !before.blocks[index] ? [lmsStatement(at, 'satisfied', { id: ids.block(run.packageId, index), type: BLOCK_TYPE })] : [],
    ),
    ...(after.course && !before.course ? [lmsStatement(at, 'satisfied', { id: ids.course(run.packageId), type: COURSE_TYPE })] : []),
  ]
  if (run.reg.standard === 'cmi5') await writeLms(trx, config, run.reg.organization_id, statements)
  if (after.course) run.reg = { ...run.reg, ...(await passRegistration(trx, source, run.reg, sessionId)) }
}

const secondsBetween = (from: Date, to: Date) => Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000))

/**
 * Ends a session (DECISIONS §13.4–13.5): `terminated` by the AU, or `abandoned` (a new launch, the
 * sweep, an admin), which the LMS records with its duration, launch to last statement (cmi5 §9.5.4.2).
 * Either way it is one attempt of the registration.
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
  const ended = await endSessionRow(trx, source, session.id, { endedBy: how.endedBy, durationSeconds: seconds })
  if (how.endedBy === 'abandoned') {
    if (run.reg.standard === 'cmi5') {
      const at = statementContext(run, session.id, run.aus[session.au_index])
      const activity = { id: session.activity_id }
      await writeLms(trx, deps.config, run.reg.organization_id, [lmsStatement(at, 'abandoned', activity, { result: durationResult(seconds) })])
    }
  }
  const scorePercent = session.score_scaled === null ? null : Math.round(session.score_scaled * 100)
  const updated = await recordSessionAttempt(trx, source, run.reg, { id: session.id, failed: session.outcome === 'failed', scorePercent, seconds })
  run.reg = { ...run.reg, ...updated }
  return ended
}

/** Abandons the registration's sessions still open: a new launch ends the one before (cmi5 §9.3.6). */
async function abandonOpen(trx: Db, deps: LaunchDeps, source: EventSource | Actor, run: Run) {
  for (const session of await openSessions(trx, run.reg.id)) await endSession(trx, deps, source, run, session, { endedBy: 'abandoned' })
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
 * Launches an AU or SCO of the registration (DECISIONS §13.4): abandons the session before, enters
 * the package version, opens a session and, for cmi5, writes LMS.LaunchData and `launched` before
 * answering the URL. Crew launch their own registrations (`assigneeId`).
 */
export async function launch(deps: LaunchDeps, actor: Actor, registrationId: string, assigneeId: string | undefined, body: LaunchCreate): Promise<Launch> {
  const { db, config } = deps
  return db.transaction().execute(async (trx) => {
    const run = await loadRun(trx, config, actor.orgId, registrationId, assigneeId)
    const au = run.aus[body.auIndex]
    if (!au) throw invalid(['body', 'auIndex'], `This course has ${run.aus.length} AU${run.aus.length === 1 ? '' : 's'}: 0 to ${run.aus.length - 1}`)
    await abandonOpen(trx, deps, actor, run)
    const sessionId = randomUUID()
    await enter(trx, deps, actor, run, await auStates(trx, run.reg.id), sessionId)
    const standard = run.reg.standard as Launch['standard']
    const expiresAt = new Date(Date.now() + config.launchSessionMinutes * 60_000)
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
    })
    const paths = contentPaths(config)
    const grant = { orgId: actor.orgId, packageId: run.packageId, sessionId, expiresAt }
    const auUrl = URL.canParse(au.url) ? au.url : paths.url(grant, au.url)
    const url =
      standard === 'cmi5'
        ? await prepareCmi5(trx, deps, run, au, { sessionId, activityId, auUrl, launchMode: body.launchMode, returnUrl: body.returnUrl, fetchSecret })
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
  await writeStateDocument(trx, orgId, { activityId: s.activityId, agent: run.learner, registration: run.reg.id, stateId: LAUNCH_DATA, content: launchData })
  const extensions = {
    [EXTENSION.launchMode]: s.launchMode,
    [EXTENSION.launchUrl]: s.auUrl,
    [EXTENSION.moveOn]: au.moveOn,
    ...(au.mastery_score !== null && { [EXTENSION.masteryScore]: au.mastery_score }),
    ...(au.launch_parameters !== null && { [EXTENSION.launchParameters]: au.launch_parameters }),
  }
  await writeLms(trx, config, orgId, [lmsStatement(statementContext(run, s.sessionId, au), 'launched', { id: s.activityId }, { extensions })])
  return cmi5Url(s.auUrl, {
    endpoint: `${config.publicUrl}/api/v1/learn/xapi/`,
    fetch: `${config.publicUrl}/api/v1/learn/cmi5/fetch/${s.sessionId}.${s.fetchSecret}`,
    actor: JSON.stringify(run.learner),
    registration: run.reg.id,
    activityId: s.activityId,
  })
}

/** An admin or office admin abandons an open session (DECISIONS §13.4). */
export async function abandonSession(deps: LaunchDeps, actor: Actor, sessionId: string) {
  const { db, config } = deps
  return db.transaction().execute(async (trx) => {
    const found = await trx.selectFrom('learning_sessions').select('registration_id').where('organization_id', '=', actor.orgId).where('id', '=', sessionId).executeTakeFirst()
    if (!found) throw notFound('Session')
    // The registration first, then the session: the order every writer of a session takes.
    const run = await loadRun(trx, config, actor.orgId, found.registration_id)
    const session = (await lockSession(trx, actor.orgId, sessionId))!
    if (session.ended_at) throw conflict('This session has already ended')
    return toLearningSession(await endSession(trx, deps, actor, run, session, { endedBy: 'abandoned' }))
  })
}

/** Open sessions past their expiry are abandoned (the job queue's sweep), each in its own transaction. */
export async function abandonExpired(deps: LaunchDeps, expired: readonly { id: string; organization_id: string; registration_id: string }[]) {
  for (const { id, organization_id: orgId, registration_id } of expired) {
    await deps.db.transaction().execute(async (trx) => {
      const run = await loadRun(trx, deps.config, orgId, registration_id)
      const session = await lockSession(trx, orgId, id)
      if (!session || session.ended_at) return
      await endSession(trx, deps, { orgId, actor: null, requestId: null }, run, session, { endedBy: 'abandoned' })
    })
  }
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
