import { randomBytes } from 'node:crypto'
import type { Config } from '../../../config.js'
import type { Db } from '../../../db/database.js'
import { conflict, notFound } from '../../../lib/errors.js'
import type { PackageBlock } from '../packages/package-model.js'
import type { XapiAgent } from '../xapi/agents.js'
import { storeStatements } from '../xapi/store.js'
import { type AuState, satisfaction } from './move-on.js'
import { passRegistration } from './results.queries.js'
import { enterPackage, lockRegistration, lockSession, packageAus, recordAuStates } from './sessions.queries.js'
import { type LaunchDeps, type Run, type Source, standardOf } from './standard.js'

// A registration locked for a change (a launch, a waive, a session's step or end), and what every such
// change does after: the AUs, blocks and course it satisfies, the LMS's own statements, the pass.

export const newSecret = () => randomBytes(32).toString('base64url')

/** The actor of a person (DECISIONS §13.4): an account on the service's public URL named by the user id. */
export const learnerAgent = (publicUrl: string, user: { id: string; first_name: string; last_name: string }): XapiAgent => ({
  objectType: 'Agent',
  account: { homePage: publicUrl, name: user.id },
  name: `${user.first_name} ${user.last_name}`,
})

/** The LMS's activity id of an AU in a registration (cmi5 §8.1.5): stable per registration and AU, never the publisher's. */
export const auActivityId = (publicUrl: string, registrationId: string, auIndex: number) =>
  `${publicUrl}/learn/registrations/${registrationId}/aus/${auIndex}`

/** The authority of what the LMS writes itself (launched, satisfied, abandoned, waived, a SCORM session's statements). */
const lmsAuthority = (config: Config): XapiAgent => ({
  objectType: 'Agent',
  name: 'Seaworthy',
  account: { homePage: config.publicUrl, name: 'lms' },
})

export const writeLms = (trx: Db, config: Config, orgId: string, statements: unknown[]) =>
  statements.length === 0
    ? Promise.resolve([])
    : storeStatements(trx, orgId, statements, { authority: lmsAuthority(config), credentialId: null })

/** Locks the registration (crew: only their own) and loads the package version it runs on, with its standard. */
export async function loadRun(trx: Db, deps: LaunchDeps, orgId: string, registrationId: string, assigneeId?: string): Promise<Run> {
  const reg = await lockRegistration(trx, orgId, registrationId, assigneeId)
  if (!reg) throw notFound('Registration')
  if (!reg.run_package_id) throw conflict('This course has no package to launch')
  return {
    reg,
    packageId: reg.run_package_id,
    aus: await packageAus(trx, reg.run_package_id),
    blocks: (reg.blocks ?? []) as PackageBlock[],
    learner: learnerAgent(deps.config.publicUrl, { id: reg.user_id, first_name: reg.first_name, last_name: reg.last_name }),
    standard: standardOf(deps.standards, reg.standard),
  }
}

/** A session's step (its statements, a commit): its registration locked, then the session, the order every writer of a session takes. */
export async function lockStep(trx: Db, deps: LaunchDeps, found: { id: string; organization_id: string; registration_id: string }) {
  const run = await loadRun(trx, deps, found.organization_id, found.registration_id)
  const session = await lockSession(trx, found.organization_id, found.id)
  return { run, session }
}

/**
 * The registration enters its package version on its first launch or waive: it keeps that version
 * from then on, and moveOn is evaluated at once (cmi5 §9.6.1.1: NotApplicable AUs are satisfied at
 * registration, which may satisfy blocks or the whole course).
 */
export async function enter(trx: Db, deps: LaunchDeps, source: Source, run: Run, states: Map<number, AuState>, sessionId: string) {
  if (run.reg.package_id !== null) return
  const entered = await enterPackage(trx, run.reg.id, run.packageId, run.reg.status === 'not_started' ? 'in_progress' : run.reg.status)
  const before = satisfaction(
    run.aus.map(() => ({ moveOn: 'Passed' as const })),
    run.blocks,
    new Map(),
  )
  run.reg = { ...run.reg, ...entered }
  await settle(trx, deps, source, run, before, states, sessionId)
}

/**
 * A session's step decided what the registration has of its AU (flags only ever turn on): it is
 * recorded, and what it satisfies settled.
 */
export async function recordAuResult(
  trx: Db,
  deps: LaunchDeps,
  source: Source,
  run: Run,
  states: Map<number, AuState>,
  at: { auIndex: number; sessionId: string },
  result: { completed: boolean; passed: boolean; failed: boolean },
) {
  const auBefore = states.get(at.auIndex) ?? { completed: false, passed: false, waived: null }
  const before = satisfaction(run.aus, run.blocks, states)
  states.set(at.auIndex, { ...auBefore, completed: auBefore.completed || result.completed, passed: auBefore.passed || result.passed })
  await recordAuStates(trx, run.reg.id, [{ au_index: at.auIndex, ...result }])
  await settle(trx, deps, source, run, before, states, at.sessionId)
}

/**
 * After what the registration has of its AUs changed (from `before`): record the AUs now satisfied,
 * let the standard announce each block and the course newly satisfied (in the session that caused it),
 * and pass the registration when the course is.
 */
export async function settle(
  trx: Db,
  deps: LaunchDeps,
  source: Source,
  run: Run,
  before: ReturnType<typeof satisfaction>,
  states: Map<number, AuState>,
  sessionId: string,
) {
  const { config } = deps
  const after = satisfaction(run.aus, run.blocks, states)
  await recordAuStates(
    trx,
    run.reg.id,
    after.aus.flatMap((satisfied, index) => (satisfied && !before.aus[index] ? [{ au_index: index, satisfied: true }] : [])),
  )
  const newly = {
    blocks: after.blocks.flatMap((satisfied, index) => (satisfied && !before.blocks[index] ? [index] : [])),
    course: after.course && !before.course,
  }
  await writeLms(trx, config, run.reg.organization_id, run.standard.outcome.satisfied(config, run, sessionId, newly))
  if (after.course) run.reg = { ...run.reg, ...(await passRegistration(trx, source, run.reg, sessionId, config.expiringSoonDays)) }
}
