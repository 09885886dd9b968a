import { parse as parseDuration, toSeconds } from 'iso8601-duration'
import type { LaunchMode } from '../../db/schema.js'
import { XapiError } from '../xapi/errors.js'
import { AU_VERBS, CMI5_CATEGORY, EXTENSION, MOVEON_CATEGORY, VERB } from './cmi5.js'

type Json = Record<string, any>

/** What a session has seen so far (cmi5 §9.3: each defined verb at most once per session). */
export interface SessionProgress {
  initialized: boolean
  completed: boolean
  outcome: 'passed' | 'failed' | null
  terminated: boolean
  scoreScaled: number | null
  /** From the `terminated` statement's `result.duration`, when it gave one. */
  durationSeconds: number | null
}

/** What the registration has seen of this AU over all its sessions (cmi5 §9.3.0: one completed, one passed). */
export interface AuProgress {
  completed: boolean
  passed: boolean
}

export interface SessionRules {
  sessionId: string
  activityId: string
  launchMode: LaunchMode
  masteryScore: number | null
}

const refuse = (at: string, why: string) => new XapiError(403, `${at}: ${why} (cmi5 §9.3)`)

const categories = (statement: Json): string[] =>
  (statement.context?.contextActivities?.category ?? []).map((activity: Json) => String(activity?.id))

function durationSeconds(statement: Json): number | null {
  const text = statement.result?.duration
  if (typeof text !== 'string') return null
  try {
    return toSeconds(parseDuration(text))
  } catch {
    return null
  }
}

/**
 * Checks a batch of an AU's statements against cmi5's statement rules, in order, and answers what the
 * session and the registration's AU have seen after them. Throws 403 at the first statement that breaks
 * a rule, so the batch is refused whole and nothing is stored (cmi5 §9.3, xAPI's atomic batches).
 */
export function applyAuStatements(
  rules: SessionRules,
  before: { session: SessionProgress; au: AuProgress },
  statements: readonly Json[],
): { session: SessionProgress; au: AuProgress } {
  const session = { ...before.session }
  const au = { ...before.au }
  statements.forEach((statement, index) => {
    const at = statements.length === 1 ? 'statement' : `statements[${index}]`
    const verb = String(statement.verb?.id ?? '')
    if (session.terminated) throw refuse(at, 'the session has terminated')
    const startsSession = verb === VERB.initialized && categories(statement).includes(CMI5_CATEGORY)
    if (!session.initialized && !startsSession) throw refuse(at, 'a session starts with initialized')
    // cmi5-defined: one of its verbs with its category (§9.6.2.1); the same verb without it (a video profile's
    // `initialized`, say) is an allowed statement, free but for the session's order.
    const isCmi5 = categories(statement).includes(CMI5_CATEGORY)
    if (!isCmi5) return
    if (!AU_VERBS.has(verb)) throw refuse(at, 'only cmi5-defined statements carry the cmi5 category')
    if (statement.object?.id !== rules.activityId) throw refuse(at, "the object is the AU's activityId from the launch URL")
    if (statement.context?.extensions?.[EXTENSION.sessionId] !== rules.sessionId) throw refuse(at, "the context carries this session's sessionid")
    const score = statement.result?.score
    if (score !== undefined && verb !== VERB.passed && verb !== VERB.failed) throw refuse(at, 'only passed and failed carry a score')
    const judged = verb === VERB.completed || verb === VERB.passed || verb === VERB.failed
    if (judged) {
      if (rules.launchMode !== 'Normal') throw refuse(at, `${rules.launchMode} mode sends no completed, passed or failed`)
      if (!categories(statement).includes(MOVEON_CATEGORY)) throw refuse(at, 'completed, passed and failed carry the moveon category')
    }
    switch (verb) {
      case VERB.initialized:
        if (session.initialized) throw refuse(at, 'initialized only once per session')
        session.initialized = true
        break
      case VERB.completed:
        if (session.completed || au.completed) throw refuse(at, 'completed only once per registration')
        session.completed = au.completed = true
        break
      case VERB.passed:
      case VERB.failed: {
        const passed = verb === VERB.passed
        if (session.outcome) throw refuse(at, 'passed or failed only once per session')
        if (au.passed) throw refuse(at, passed ? 'passed only once per registration' : 'no failed after passed in a registration')
        const scaled = typeof score?.scaled === 'number' ? (score.scaled as number) : null
        if (rules.masteryScore !== null) {
          if (statement.context?.extensions?.[EXTENSION.masteryScore] === undefined) throw refuse(at, 'the masteryScore extension is required')
          if (scaled === null) throw refuse(at, 'a score.scaled is required when the AU has a masteryScore')
          if (passed ? scaled < rules.masteryScore : scaled >= rules.masteryScore)
            throw refuse(at, `a score of ${scaled} is not a ${passed ? 'pass' : 'fail'} against the masteryScore ${rules.masteryScore}`)
        }
        session.outcome = passed ? 'passed' : 'failed'
        if (scaled !== null) session.scoreScaled = scaled
        if (passed) au.passed = true
        break
      }
      case VERB.terminated:
        session.terminated = true
        session.durationSeconds = durationSeconds(statement)
        break
    }
  })
  return { session, au }
}
