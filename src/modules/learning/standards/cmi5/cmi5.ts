import { randomUUID } from 'node:crypto'
import type { AuRow } from '../../launch/sessions.queries.js'
import type { Run } from '../../launch/standard.js'
import type { XapiAgent } from '../../xapi/agents.js'
import { VERB } from '../../xapi/vocabulary.js'

// cmi5's vocabulary (cmi5 §9.3, §9.6; its verbs are ADL's, in xapi/vocabulary.ts) and the LMS's own statements.

export const CMI5_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/cmi5'
export const MOVEON_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/moveon'
const EXT = 'https://w3id.org/xapi/cmi5/context/extensions/'
export const EXTENSION = {
  sessionId: `${EXT}sessionid`,
  masteryScore: `${EXT}masteryscore`,
  launchMode: `${EXT}launchmode`,
  launchUrl: `${EXT}launchurl`,
  moveOn: `${EXT}moveon`,
  launchParameters: `${EXT}launchparameters`,
  reason: 'https://w3id.org/xapi/cmi5/result/extensions/reason',
} as const

/** The State document the LMS writes before a launch (cmi5 §10): the AU reads it and never writes it. */
export const LAUNCH_DATA = 'LMS.LaunchData'

/** The verbs of cmi5-defined statements an AU may send (cmi5 §9.3). */
export const AU_VERBS: ReadonlySet<string> = new Set([VERB.initialized, VERB.completed, VERB.passed, VERB.failed, VERB.terminated])

/** The ids the LMS makes for blocks and the course (cmi5 §9.4): stable per package version, never the publisher's. */
export const lmsIds = (publicUrl: string) => ({
  block: (packageId: string, blockIndex: number) => `${publicUrl}/learn/packages/${packageId}/blocks/${blockIndex}`,
  course: (packageId: string) => `${publicUrl}/learn/packages/${packageId}/course`,
})

/** What the LMS's own statements about one session share. */
export interface LmsStatementContext {
  actor: XapiAgent
  registration: string
  sessionId: string
  /** The AU's publisher id, the context's grouping (cmi5 §10.2.1). */
  publisherId: string
}

/** cmi5's context template for one session: the AU's statements must carry it (LMS.LaunchData, cmi5 §10). */
export const contextTemplate = (sessionId: string, publisherId: string) => ({
  contextActivities: { grouping: [{ id: publisherId }] },
  extensions: { [EXTENSION.sessionId]: sessionId },
})

/** One statement the LMS writes about an AU (launched, abandoned, waived) or a block or the course (satisfied). */
export function lmsStatement(
  at: LmsStatementContext,
  verb: keyof typeof VERB,
  object: { id: string; type?: string },
  extras: { result?: Record<string, unknown>; extensions?: Record<string, unknown>; moveOn?: boolean } = {},
) {
  const template = contextTemplate(at.sessionId, at.publisherId)
  const categories = [{ id: CMI5_CATEGORY }, ...(extras.moveOn ? [{ id: MOVEON_CATEGORY }] : [])]
  return {
    id: randomUUID(),
    actor: at.actor,
    verb: { id: VERB[verb], display: { 'en-US': verb } },
    object: { objectType: 'Activity', id: object.id, ...(object.type ? { definition: { type: object.type } } : {}) },
    ...(extras.result ? { result: extras.result } : {}),
    context: {
      registration: at.registration,
      contextActivities: { ...template.contextActivities, category: categories },
      extensions: { ...template.extensions, ...extras.extensions },
    },
    timestamp: new Date().toISOString(),
  }
}

export const statementContext = (run: Run, sessionId: string, au?: AuRow): LmsStatementContext => ({
  actor: run.learner,
  registration: run.reg.id,
  sessionId,
  publisherId: au?.publisher_id ?? run.reg.publisher_id ?? run.packageId,
})

const BLOCK_TYPE = 'https://w3id.org/xapi/cmi5/activitytype/block'
const COURSE_TYPE = 'https://w3id.org/xapi/cmi5/activitytype/course'

/** `satisfied` for each block and the course newly satisfied (cmi5 §9.3.9), each grouped under its own publisher id (§9.6.2.3). */
export function satisfiedStatements(publicUrl: string, run: Run, sessionId: string, newly: { blocks: number[]; course: boolean }) {
  const ids = lmsIds(publicUrl)
  const at = statementContext(run, sessionId)
  return [
    ...newly.blocks.map((index) =>
      lmsStatement({ ...at, publisherId: run.blocks[index].id }, 'satisfied', { id: ids.block(run.packageId, index), type: BLOCK_TYPE }),
    ),
    ...(newly.course ? [lmsStatement(at, 'satisfied', { id: ids.course(run.packageId), type: COURSE_TYPE })] : []),
  ]
}
