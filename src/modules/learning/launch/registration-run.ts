import { randomBytes } from 'node:crypto'
import type { Config } from '../../../config.js'
import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { conflict, notFound } from '../../../lib/errors.js'
import type { EventSource } from '../../../lib/events.js'
import type { PackageBlock } from '../packages/package-model.js'
import type { XapiAgent } from '../xapi/agents.js'
import { storeStatements } from '../xapi/store.js'
import { BLOCK_TYPE, COURSE_TYPE, type LmsStatementContext, lmsIds, lmsStatement } from '../standards/cmi5/cmi5.js'
import { type AuState, satisfaction } from './move-on.js'
import { passRegistration } from './results.queries.js'
import { type AuRow, enterPackage, type LockedRegistration, lockRegistration, packageAus, recordAuStates } from './sessions.queries.js'

// A registration locked for a change (a launch, a waive, a session's statements or end), and what every
// such change does after: the AUs, blocks and course it satisfies, the LMS's own statements, the pass.

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
  statements.length === 0
    ? Promise.resolve([])
    : storeStatements(trx, orgId, statements, { authority: lmsAuthority(config), credentialId: null })

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

export const statementContext = (run: Run, sessionId: string, au?: AuRow): LmsStatementContext => ({
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
export async function enter(
  trx: Db,
  deps: LaunchDeps,
  source: EventSource | Actor,
  run: Run,
  states: Map<number, AuState>,
  sessionId: string,
) {
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
  // Each `satisfied` is grouped under the publisher id of what it is about: the block's, or the course's (cmi5 §9.6.2.3).
  const statements = [
    ...run.blocks.flatMap((block, index) =>
      after.blocks[index] && !before.blocks[index]
        ? [lmsStatement({ ...at, publisherId: block.id }, 'satisfied', { id: ids.block(run.packageId, index), type: BLOCK_TYPE })]
        : [],
    ),
    ...(after.course && !before.course ? [lmsStatement(at, 'satisfied', { id: ids.course(run.packageId), type: COURSE_TYPE })] : []),
  ]
  if (run.reg.standard === 'cmi5') await writeLms(trx, config, run.reg.organization_id, statements)
  if (after.course) run.reg = { ...run.reg, ...(await passRegistration(trx, source, run.reg, sessionId, config.expiringSoonDays)) }
}
