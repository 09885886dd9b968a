import { randomUUID } from 'node:crypto'
import type { XapiAgent } from '../../xapi/agents.js'
import { durationResult, VERB } from '../../xapi/vocabulary.js'
import type { AnsweredInteraction } from './scorm-runtime.js'

const ANSWERED = 'http://adlnet.gov/expapi/verbs/answered'
const INTERACTION_TYPE = 'http://adlnet.gov/expapi/activities/cmi.interaction'
const SCO_TYPE = 'http://adlnet.gov/expapi/activities/lesson'
/** The session a statement belongs to, the extension cmi5 uses for the same (so one query finds both kinds). */
const SESSION_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid'

/** What the statements of one SCORM session share: the learner, the registration, the session, the SCO's LMS activity id. */
export interface ScormStatementContext {
  actor: XapiAgent
  registration: string
  sessionId: string
  activityId: string
}

function statement(
  at: ScormStatementContext,
  verb: { id: string; name: string },
  object: Record<string, unknown>,
  result?: Record<string, unknown>,
) {
  return {
    id: randomUUID(),
    actor: at.actor,
    verb: { id: verb.id, display: { 'en-US': verb.name } },
    object: { objectType: 'Activity', ...object },
    ...(result && { result }),
    context: {
      registration: at.registration,
      ...(object.id !== at.activityId && { contextActivities: { parent: [{ id: at.activityId }] } }),
      extensions: { [SESSION_EXTENSION]: at.sessionId },
    },
    timestamp: new Date().toISOString(),
  }
}

const sco = (at: ScormStatementContext) => ({ id: at.activityId, definition: { type: SCO_TYPE } })
const score = (scaled: number | null) => (scaled === null ? {} : { score: { scaled } })

export const scormStatements = (at: ScormStatementContext) => ({
  initialized: () => statement(at, { id: VERB.initialized, name: 'initialized' }, sco(at)),
  completed: () => statement(at, { id: VERB.completed, name: 'completed' }, sco(at), { completion: true }),
  outcome: (outcome: 'passed' | 'failed', scaled: number | null) =>
    statement(at, { id: VERB[outcome], name: outcome }, sco(at), { success: outcome === 'passed', ...score(scaled) }),
  answered: (interaction: AnsweredInteraction) =>
    statement(
      at,
      { id: ANSWERED, name: 'answered' },
      {
        id: `${at.activityId}/interactions/${encodeURIComponent(interaction.id)}`,
        definition: {
          type: INTERACTION_TYPE,
          ...(interaction.description && { description: { 'en-US': interaction.description } }),
          ...(interaction.type && { interactionType: interaction.type }),
        },
      },
      {
        ...(interaction.correct !== null && { success: interaction.correct }),
        ...(interaction.response !== null && { response: String(interaction.response) }),
      },
    ),
  terminated: (seconds: number) => statement(at, { id: VERB.terminated, name: 'terminated' }, sco(at), durationResult(seconds)),
})
