import type { LaunchMode } from '../../../../db/schema.js'
import { VOIDED } from '../../xapi/store.js'
import { VERB } from '../../xapi/vocabulary.js'
import { AU_VERBS, EXTENSION, MOVEON_CATEGORY } from './cmi5.js'

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

/** What the registration has seen of this AU over all its sessions (cmi5 §9.3: one completed, one passed). */
export interface AuProgress {
  completed: boolean
  passed: boolean
}

/** What the launch gave the AU (the launch URL and LMS.LaunchData), and whether it has read LMS.LaunchData. */
export interface SessionRules {
  sessionId: string
  activityId: string
  registration: string
  actorKey: string
  /** The AU's publisher id: the context template's `grouping` (cmi5 §10.2.1). */
  publisherId: string
  launchMode: LaunchMode
  masteryScore: number | null
  launchDataRead: boolean
}

/** One statement of a session as the rules see it, with what the session and the AU had before it. */
export interface RuleSubject {
  statement: Json
  verb: string
  /** cmi5-defined: the statement carries cmi5's category (§7.1.3); otherwise it is an allowed statement. */
  defined: boolean
  launch: SessionRules
  session: SessionProgress
  au: AuProgress
}

export interface Cmi5Rule {
  /** The requirement's number in ADL's cmi5 requirements register (the id CATAPULT reports). */
  id: string
  /** What the rule asks: the 403's message. */
  text: string
  broken: (s: RuleSubject) => boolean
}

const idsOf = (list: unknown): string[] => (Array.isArray(list) ? list.map((activity) => String(activity?.id)) : [])
const categories = (s: RuleSubject) => idsOf(s.statement.context?.contextActivities?.category)
const extension = (s: RuleSubject, id: string): unknown => s.statement.context?.extensions?.[id]
const result = (s: RuleSubject): Json => s.statement.result ?? {}
const scaled = (s: RuleSubject): number | null => (typeof result(s).score?.scaled === 'number' ? result(s).score.scaled : null)
const isVerb = (s: RuleSubject, ...verbs: string[]) => s.defined && verbs.includes(s.verb)
const judged = (s: RuleSubject) => isVerb(s, VERB.completed, VERB.passed, VERB.failed)
// UTC as ISO 8601 writes it: `Z`, or a zero offset.
const UTC = /(?:Z|[+-]00(?::?00)?)$/i

const duration = (verb: string, id: string): Cmi5Rule => ({
  id,
  text: `${verb.split('/').at(-1)} carries result.duration`,
  broken: (s) => isVerb(s, verb) && result(s).duration === undefined,
})

/**
 * cmi5's statement rules for the statements an AU sends (§6.3, §9, §10), in the order they are checked:
 * the first one a statement breaks refuses its whole batch with 403 and nothing is stored. Rules on
 * every statement come first; then those on cmi5-defined statements only (allowed statements, §7.1.3,
 * keep to the session's order and context alone). The launch's actor and registration (§8.1.3, §9.6.1) are the
 * LRS's own check on every session credential (xapi/session.ts), made before these. xAPI's own rules, a `score.scaled` within −1..1
 * among them, are checked before these (400); cmi5 narrows it to 0..1.
 */
export const CMI5_RULES: readonly Cmi5Rule[] = [
  { id: '6.3.0.0-1', text: 'an AU does not void statements', broken: (s) => s.verb === VOIDED },
  { id: '9.1.0.0-1', text: 'the AU gives every statement its id', broken: (s) => s.statement.id === undefined },
  { id: '9.7.0.0-1', text: 'every statement carries a timestamp', broken: (s) => s.statement.timestamp === undefined },
  { id: '9.7.0.0-2', text: 'timestamps are in UTC', broken: (s) => !UTC.test(String(s.statement.timestamp)) },
  {
    id: '9.2.0.0-2',
    text: 'the actor is an Agent',
    broken: (s) => s.statement.actor?.objectType !== undefined && s.statement.actor.objectType !== 'Agent',
  },
  {
    id: '9.6.3.1-4',
    text: "the context carries this session's sessionid extension",
    broken: (s) => extension(s, EXTENSION.sessionId) !== s.launch.sessionId,
  },
  { id: '9.3.0.0-5', text: 'nothing follows terminated in a session', broken: (s) => s.session.terminated },
  {
    id: '9.3.0.0-4',
    text: 'a session starts with initialized',
    broken: (s) => !s.session.initialized && !isVerb(s, VERB.initialized),
  },
  {
    id: '9.6.2.2-2',
    text: "only cmi5's completed, passed and failed carry the moveon category",
    broken: (s) => categories(s).includes(MOVEON_CATEGORY) && !judged(s),
  },
  { id: '9.3.0.0-1', text: "only cmi5's verbs carry the cmi5 category", broken: (s) => s.defined && !AU_VERBS.has(s.verb) },
  {
    id: '10.2.1.0-4',
    text: 'the AU reads its LMS.LaunchData State document before initialized',
    broken: (s) => isVerb(s, VERB.initialized) && !s.launch.launchDataRead,
  },
  {
    id: '9.6.2.0-1',
    text: "the context's grouping holds the context template's publisher id",
    broken: (s) => s.defined && !idsOf(s.statement.context?.contextActivities?.grouping).includes(s.launch.publisherId),
  },
  {
    id: '8.1.5.0-6',
    text: "the object is the AU's activityId from the launch URL",
    broken: (s) => s.defined && s.statement.object?.id !== s.launch.activityId,
  },
  {
    id: '10.2.2.0-2',
    text: 'Browse mode sends no completed, passed or failed',
    broken: (s) => judged(s) && s.launch.launchMode === 'Browse',
  },
  {
    id: '10.2.2.0-3',
    text: 'Review mode sends no completed, passed or failed',
    broken: (s) => judged(s) && s.launch.launchMode === 'Review',
  },
  { id: '9.5.2.0-1', text: 'passed carries result.success true', broken: (s) => isVerb(s, VERB.passed) && result(s).success !== true },
  { id: '9.5.2.0-2', text: 'failed carries result.success false', broken: (s) => isVerb(s, VERB.failed) && result(s).success !== false },
  {
    id: '9.5.2.0-3',
    text: 'only passed and failed carry result.success',
    broken: (s) => s.defined && !isVerb(s, VERB.passed, VERB.failed) && result(s).success !== undefined,
  },
  {
    id: '9.5.3.0-1',
    text: 'completed carries result.completion true',
    broken: (s) => isVerb(s, VERB.completed) && result(s).completion !== true,
  },
  {
    id: '9.5.3.0-2',
    text: 'only completed carries result.completion',
    broken: (s) => s.defined && !isVerb(s, VERB.completed) && result(s).completion !== undefined,
  },
  {
    id: '9.6.2.2-1',
    text: 'completed, passed and failed carry the moveon category',
    broken: (s) => judged(s) && !categories(s).includes(MOVEON_CATEGORY),
  },
  {
    id: '9.5.1.0-2',
    text: 'only passed and failed carry a score',
    broken: (s) => s.defined && !isVerb(s, VERB.passed, VERB.failed) && result(s).score !== undefined,
  },
  {
    id: '9.5.1.0-3',
    text: 'a raw score comes with its min and max',
    broken: (s) =>
      s.defined && result(s).score?.raw !== undefined && (result(s).score.min === undefined || result(s).score.max === undefined),
  },
  {
    // §9.5.1 defines scaled as 0..1 (xAPI allows −1..1): a negative one would make a negative score_percent (§4).
    id: '9.5.1',
    text: 'a scaled score is between 0 and 1',
    broken: (s) => s.defined && scaled(s) !== null && (scaled(s) as number) < 0,
  },
  duration(VERB.terminated, '9.5.4.1-1'),
  duration(VERB.completed, '9.5.4.1-2'),
  duration(VERB.passed, '9.5.4.1-3'),
  duration(VERB.failed, '9.5.4.1-4'),
  {
    id: '9.6.3.2-2',
    text: "a passed or failed with a scaled score carries the masteryScore extension, and that extension is the AU's masteryScore",
    broken: (s) => {
      if (!isVerb(s, VERB.passed, VERB.failed)) return false
      const given = extension(s, EXTENSION.masteryScore)
      if (given !== undefined) return given !== s.launch.masteryScore
      return scaled(s) !== null && s.launch.masteryScore !== null
    },
  },
  {
    id: '9.3.4.0-2',
    text: 'a passed scaled score is at least the masteryScore',
    broken: (s) =>
      isVerb(s, VERB.passed) && s.launch.masteryScore !== null && scaled(s) !== null && (scaled(s) as number) < s.launch.masteryScore,
  },
  {
    id: '9.3.5.0-2',
    text: 'a failed scaled score is below the masteryScore',
    broken: (s) =>
      isVerb(s, VERB.failed) && s.launch.masteryScore !== null && scaled(s) !== null && (scaled(s) as number) >= s.launch.masteryScore,
  },
  {
    id: '9.3.0.0-2',
    text: 'no cmi5 verb twice in a session',
    broken: (s) =>
      (isVerb(s, VERB.initialized) && s.session.initialized) ||
      (isVerb(s, VERB.completed) && s.session.completed) ||
      (isVerb(s, VERB.passed, VERB.failed) && s.session.outcome === s.verb.split('/').at(-1)),
  },
  {
    id: '9.3.0.0-3',
    text: 'passed or failed, not both, in a session',
    broken: (s) => isVerb(s, VERB.passed, VERB.failed) && s.session.outcome !== null,
  },
  { id: '9.3.0.0-6', text: 'completed only once per registration', broken: (s) => isVerb(s, VERB.completed) && s.au.completed },
  { id: '9.3.0.0-7', text: 'passed only once per registration', broken: (s) => isVerb(s, VERB.passed) && s.au.passed },
  { id: '9.3.0.0-8', text: 'no failed after passed in a registration', broken: (s) => isVerb(s, VERB.failed) && s.au.passed },
]
