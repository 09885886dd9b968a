import { randomUUID } from 'node:crypto'
import type { XapiAgent } from '../../xapi/agents.js'

/** cmi5's vocabulary (cmi5 §9.3, §9.6). */
export const VERB = {
  launched: 'http://adlnet.gov/expapi/verbs/launched',
  initialized: 'http://adlnet.gov/expapi/verbs/initialized',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
  passed: 'http://adlnet.gov/expapi/verbs/passed',
  failed: 'http://adlnet.gov/expapi/verbs/failed',
  terminated: 'http://adlnet.gov/expapi/verbs/terminated',
  abandoned: 'https://w3id.org/xapi/adl/verbs/abandoned',
  waived: 'https://w3id.org/xapi/adl/verbs/waived',
  satisfied: 'https://w3id.org/xapi/adl/verbs/satisfied',
} as const

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

/** The verbs of cmi5-defined statements an AU may send (cmi5 §9.3). */
export const AU_VERBS: ReadonlySet<string> = new Set([VERB.initialized, VERB.completed, VERB.passed, VERB.failed, VERB.terminated])

/** The ids the LMS makes (cmi5 §8.1.5, §9.4): stable per registration and AU, never the publisher's. */
export const lmsIds = (publicUrl: string) => ({
  au: (registrationId: string, auIndex: number) => `${publicUrl}/learn/registrations/${registrationId}/aus/${auIndex}`,
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

const iso8601Seconds = (seconds: number) => `PT${Math.max(0, Math.round(seconds * 100) / 100)}S`

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

export const durationResult = (seconds: number) => ({ duration: iso8601Seconds(seconds) })

export const BLOCK_TYPE = 'https://w3id.org/xapi/cmi5/activitytype/block'
export const COURSE_TYPE = 'https://w3id.org/xapi/cmi5/activitytype/course'
