import type { MoveOn } from '../../packages/packages.schemas.js'
import { MAX_SECONDS } from '../../registrations/registrations.schemas.js'
import type { ScormStandard } from './scorm.schemas.js'

type Json = Record<string, any>

/**
 * What a SCO's cmi says of its result (DECISIONS §13.6), read only from the state its session ended in:
 * completion, success (passed, failed, or null when unknown) and the score.
 */
export interface ScormResult {
  completed: boolean
  outcome: 'passed' | 'failed' | null
  /** 0..1 */
  scoreScaled: number | null
}

const num = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '') return null
  const n = Number(value)
  return Number.isFinite(n) ? n : null
}
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n))
const positive = (seconds: number | null) => (seconds !== null && seconds > 0 ? seconds : null)

/** SCORM 1.2's CMITimespan `HHHH:MM:SS.SS`. */
export function timespanSeconds(value: unknown): number | null {
  const match = typeof value === 'string' ? /^(\d{2,4}):(\d{2}):(\d{2}(?:\.\d{1,2})?)$/.exec(value) : null
  return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]) : null
}

/** SCORM 2004's ISO 8601 duration (`P[nY][nM][nD][T[nH][nM][n[.n]S]]`), years and months as 365 and 30 days. */
export function durationSeconds(value: unknown): number | null {
  const match =
    typeof value === 'string' ? /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(value) : null
  if (!match || value === 'P' || (value as string).endsWith('T')) return null
  const [y, mo, d, h, mi, s] = match.slice(1).map((part) => Number(part ?? 0))
  return ((y * 365 + mo * 30 + d) * 24 + h) * 3600 + mi * 60 + s
}

/**
 * The session's time: session_time when the SCO reported one, else total_time (scorm-again adds the time
 * since Initialize to it on the final commit, and the player loads no earlier total, so it is this
 * session's); at most what the duration column holds.
 */
export function sessionSeconds(standard: ScormStandard, cmi: Json): number | null {
  const [session, total] = EDITIONS[standard].times(cmi)
  const seconds = positive(session) ?? total
  return seconds === null ? null : Math.min(seconds, MAX_SECONDS)
}

/**
 * SCORM 1.2: lesson_status passed / failed decide; `completed` with a mastery score and a raw score
 * becomes passed or failed by the score (RTE 3.4.4, cmi.core.lesson_status); the score is raw/max
 * (max 100 when not given).
 */
function result12(cmi: Json, masteryScore: number | null): ScormResult {
  const core = cmi.core ?? {}
  const raw = num(core.score?.raw)
  const max = num(core.score?.max) || 100
  const scoreScaled = raw === null ? null : clamp(raw / max, 0, 1)
  const status = core.lesson_status
  let outcome: ScormResult['outcome'] = status === 'passed' || status === 'failed' ? status : null
  if (status === 'completed' && masteryScore !== null && scoreScaled !== null) outcome = scoreScaled >= masteryScore ? 'passed' : 'failed'
  return { completed: status === 'passed' || status === 'completed', outcome, scoreScaled }
}

/**
 * SCORM 2004: success_status and completion_status; with a scaled passing score, a `score.scaled`
 * decides success itself (RTE 4.2.22); the score reported is score.scaled, else (raw − min)/(max − min).
 */
function result2004(cmi: Json, masteryScore: number | null): ScormResult {
  const score = cmi.score ?? {}
  const [scaled, raw, min, max] = [num(score.scaled), num(score.raw), num(score.min), num(score.max)]
  const reported = scaled ?? (raw !== null && min !== null && max !== null && max > min ? (raw - min) / (max - min) : null)
  let outcome: ScormResult['outcome'] = cmi.success_status === 'passed' || cmi.success_status === 'failed' ? cmi.success_status : null
  if (masteryScore !== null && scaled !== null) outcome = scaled >= masteryScore ? 'passed' : 'failed'
  return { completed: cmi.completion_status === 'completed', outcome, scoreScaled: reported === null ? null : clamp(reported, 0, 1) }
}

/** The result of a SCO in the state its session ended in (credit mode: Browse and Review record none). */
export const scormResult = (standard: ScormStandard, cmi: Json, masteryScore: number | null): ScormResult =>
  EDITIONS[standard].result(cmi, masteryScore)

/** A SCO with a mastery score must be passed; any other SCO is done when completed or passed. */
export const scoMoveOn = (masteryScore: number | null): MoveOn => (masteryScore === null ? 'CompletedOrPassed' : 'Passed')

/** Where a SCO left off: location and suspend data of a committed cmi. */
export function suspended(standard: ScormStandard, cmi: Json | null): { location: string; suspendData: string } | null {
  if (!cmi) return null
  const location = EDITIONS[standard].location(cmi) ?? ''
  const suspendData = cmi.suspend_data ?? ''
  return location || suspendData ? { location: String(location), suspendData: String(suspendData) } : null
}

/**
 * The cmi the player loads before the SCO initializes (scorm-again's loadFromJSON): the learner,
 * the mode and credit of the launch, the mastery score, where the last session left off (entry
 * `resume`, else `ab-initio`) and, in 2004, the manifest's objectives (§13.6), keyed by index as
 * scorm-again keeps them.
 */
export function initialCmi(standard: ScormStandard, s: Start): Json {
  const mode = s.launchMode.toLowerCase()
  const credit = s.launchMode === 'Normal' ? 'credit' : 'no-credit'
  return EDITIONS[standard].start(s, { mode, credit, entry: s.resume ? 'resume' : 'ab-initio' })
}

/** What the player starts a SCO with: the learner, the launch's mode, the mastery score, where the last session left off, its objectives. */
interface Start {
  learnerId: string
  learnerName: string
  launchMode: string
  masteryScore: number | null
  resume: ReturnType<typeof suspended>
  /** The manifest's objective ids for the item, primary first (2004). */
  objectiveIds: string[]
}

/** What differs between SCORM's editions in the data model the service reads and loads. */
interface Edition {
  /** session_time and total_time, in seconds. */
  times(cmi: Json): [number | null, number | null]
  result(cmi: Json, masteryScore: number | null): ScormResult
  location(cmi: Json): unknown
  /** An interaction's response. */
  response(entry: Json): string | undefined
  start(s: Start, as: { mode: string; credit: string; entry: string }): Json
}

const EDITIONS: Record<ScormStandard, Edition> = {
  scorm12: {
    times: (cmi) => [timespanSeconds(cmi.core?.session_time), timespanSeconds(cmi.core?.total_time)],
    result: result12,
    location: (cmi) => cmi.core?.lesson_location,
    response: (entry) => entry.student_response,
    start: (s, as) => ({
      core: {
        student_id: s.learnerId,
        student_name: s.learnerName,
        lesson_mode: as.mode,
        credit: as.credit,
        entry: as.entry,
        ...(s.resume && { lesson_location: s.resume.location }),
      },
      ...(s.resume && { suspend_data: s.resume.suspendData }),
      ...(s.masteryScore !== null && { student_data: { mastery_score: String(Math.round(s.masteryScore * 100)) } }),
    }),
  },
  scorm2004: {
    times: (cmi) => [durationSeconds(cmi.session_time), durationSeconds(cmi.total_time)],
    result: result2004,
    location: (cmi) => cmi.location,
    response: (entry) => entry.learner_response,
    start: (s, as) => ({
      learner_id: s.learnerId,
      learner_name: s.learnerName,
      mode: as.mode,
      credit: as.credit,
      entry: as.entry,
      ...(s.resume && { location: s.resume.location, suspend_data: s.resume.suspendData }),
      ...(s.masteryScore !== null && { scaled_passing_score: String(s.masteryScore) }),
      ...(s.objectiveIds.length > 0 && { objectives: Object.fromEntries(s.objectiveIds.map((id, index) => [index, { id }])) }),
    }),
  },
}

/** An interaction the SCO recorded with an id and a result: one `answered` statement. */
export interface AnsweredInteraction {
  index: number
  id: string
  type: string | null
  description: string | null
  response: string | null
  correct: boolean | null
}

const XAPI_INTERACTION_TYPES = new Set([
  'true-false',
  'choice',
  'fill-in',
  'long-fill-in',
  'matching',
  'performance',
  'sequencing',
  'likert',
  'numeric',
  'other',
])

/** cmi.interactions (scorm-again's JSON has them as an object keyed by index; an array is read the same). */
export function answeredInteractions(standard: ScormStandard, cmi: Json | null): AnsweredInteraction[] {
  const list = cmi?.interactions
  const entries: Json[] = Array.isArray(list) ? list : Object.values(list ?? {})
  return entries.flatMap((entry, index) => {
    if (typeof entry !== 'object' || entry === null) return []
    const result = entry.result
    if (!entry.id || result === undefined || result === null || result === '') return []
    const type = XAPI_INTERACTION_TYPES.has(entry.type) ? entry.type : null
    const response = EDITIONS[standard].response(entry) ?? null
    const correct = result === 'correct' ? true : result === 'wrong' || result === 'incorrect' ? false : null
    return [
      {
        index,
        id: String(entry.id),
        type,
        description: typeof entry.description === 'string' ? entry.description : null,
        response,
        correct,
      },
    ]
  })
}
