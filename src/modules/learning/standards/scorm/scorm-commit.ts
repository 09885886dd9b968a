import { compileSchema } from '../../../../lib/validation.js'
import { type CommitAnswer, Scorm12Cmi, Scorm2004Cmi, type ScormStandard } from './scorm.schemas.js'

// A SCORM commit's body as the service keeps it (DECISIONS §13.7): text made storable, the elements the
// service reads of their SCORM type, and anything else refused with the SCORM error a SCO understands.

type Json = Record<string, any>

export interface Commit {
  cmi: Json
  terminate: boolean
  auth?: string
}

export const refused = (errorText: string, errorCode = 101): CommitAnswer => ({ result: 'false', errorCode, errorText })

/** A commit body: scorm-again's JSON (`{cmi, terminate?}`), sent as JSON or, by the unload beacon, as text/plain. */
export function parseCommit(body: unknown): Commit | null {
  let parsed: unknown = body
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      parsed = JSON.parse(body.toString())
    } catch {
      return null
    }
  }
  if (typeof parsed !== 'object' || parsed === null) return null
  const { cmi, terminate, auth } = parsed as Json
  if (typeof cmi !== 'object' || cmi === null || Array.isArray(cmi)) return null
  return { cmi, terminate: terminate === true, auth: typeof auth === 'string' ? auth : undefined }
}

/** Deeper than any element of either data model (cmi.interactions.n.correct_responses.n.pattern is 5). */
const MAX_DEPTH = 8

const deeperThan = (value: unknown, depth: number): boolean =>
  value !== null && typeof value === 'object' && (depth === 0 || Object.values(value).some((child) => deeperThan(child, depth - 1)))

// PostgreSQL holds neither U+0000 nor an unpaired surrogate; a SCO's text keeps its place with U+FFFD.
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
const storableText = (text: string) => text.replace(UNSTORABLE, '\uFFFD')

/** A copy of JSON (of bounded depth) with every string, keys included, made storable. */
function storable(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value)
  if (Array.isArray(value)) return value.map(storable)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [storableText(key), storable(child)]))
}

const checks = { scorm12: compileSchema(Scorm12Cmi, false), scorm2004: compileSchema(Scorm2004Cmi, false) }
/** The standard's "incorrect data type" (1.2) / "type mismatch" (2004), as scorm-again reports the same at SetValue. */
const TYPE_MISMATCH = { scorm12: 405, scorm2004: 406 }

/**
 * The commit's cmi to keep, or the SCORM error that refuses it: an element of the wrong type or past
 * its standard's size (1.2 suspend_data 4,096 characters, 2004 64,000), or nesting deeper than cmi has.
 */
export function storableCmi(standard: ScormStandard, cmi: Json): { cmi: Json } | { refused: CommitAnswer } {
  if (deeperThan(cmi, MAX_DEPTH)) return { refused: refused('The cmi is nested deeper than the SCORM data model', TYPE_MISMATCH[standard]) }
  const kept = storable(cmi) as Json
  const check = checks[standard]
  if (check(kept)) return { cmi: kept }
  const [error] = check.errors ?? []
  const element = ['cmi', ...(error?.instancePath.split('/').filter(Boolean) ?? [])].join('.')
  return { refused: refused(`${element}: ${error?.message ?? 'wrong type'}`, TYPE_MISMATCH[standard]) }
}
