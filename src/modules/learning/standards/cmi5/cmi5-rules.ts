import { parse as parseDuration, toSeconds } from 'iso8601-duration'
import { XapiError } from '../../xapi/errors.js'
import { VERB } from '../../xapi/vocabulary.js'
import { CMI5_CATEGORY } from './cmi5.js'
import { type AuProgress, CMI5_RULES, type SessionProgress, type SessionRules } from './cmi5-rule-table.js'

type Json = Record<string, any>

function durationSeconds(statement: Json): number | null {
  const text = statement.result?.duration
  if (typeof text !== 'string') return null
  try {
    return toSeconds(parseDuration(text))
  } catch {
    return null
  }
}

/** What one statement that keeps every rule changes in the session and the registration's AU. */
function advance(statement: Json, verb: string, session: SessionProgress, au: AuProgress): void {
  switch (verb) {
    case VERB.initialized:
      session.initialized = true
      break
    case VERB.completed:
      session.completed = au.completed = true
      break
    case VERB.passed:
    case VERB.failed: {
      const passed = verb === VERB.passed
      session.outcome = passed ? 'passed' : 'failed'
      const scaled = statement.result?.score?.scaled
      if (typeof scaled === 'number') session.scoreScaled = scaled
      if (passed) au.passed = true
      break
    }
    case VERB.terminated:
      session.terminated = true
      session.durationSeconds = durationSeconds(statement)
      break
  }
}

/**
 * Checks a batch of an AU's statements (valid xAPI, normalized) against cmi5's statement rules
 * (CMI5_RULES), in order, and answers what the session and the registration's AU have seen after them.
 * Throws 403 at the first statement that breaks a rule, so the batch is refused whole and nothing is
 * stored (cmi5 §6.3 lets an LMS reject; xAPI's batches are atomic).
 */
export function applyAuStatements(
  launch: SessionRules,
  before: { session: SessionProgress; au: AuProgress },
  statements: readonly Json[],
): { session: SessionProgress; au: AuProgress } {
  const session = { ...before.session }
  const au = { ...before.au }
  statements.forEach((statement, index) => {
    const at = statements.length === 1 ? 'statement' : `statements[${index}]`
    const verb = String(statement.verb?.id ?? '')
    const category = statement.context?.contextActivities?.category
    const defined = Array.isArray(category) && category.some((activity: Json) => activity?.id === CMI5_CATEGORY)
    const subject = { statement, verb, defined, launch, session, au }
    const broken = CMI5_RULES.find((rule) => rule.broken(subject))
    if (broken) throw new XapiError(403, `${at}: ${broken.text} (cmi5 ${broken.id})`)
    if (defined) advance(statement, verb, session, au)
  })
  return { session, au }
}
