import { createRequire } from 'node:module'
import { badRequest } from './errors.js'

type Json = Record<string, any>

// A CommonJS module whose function sits under `default`: required, so Node and Vite read it alike.
const validateStatement: (statement: unknown) => Json[] = createRequire(import.meta.url)('xapi-validation').default

/** What each of xapi-validation's warnings means, for a message that names the field and the rule. */
const RULES: Record<string, string> = {
  TypeWarning: 'is not a valid',
  RequiredWarning: 'is required',
  RestrictedKeysWarning: 'has properties xAPI does not define',
  RestrictedValueWarning: 'is not an allowed value',
  IfiCountWarning: 'must name exactly one identifier (mbox, mbox_sha1sum, openid, account)',
  NoIfiWarning: 'must name an identifier',
  ContextPropWarning: 'cannot have revision or platform unless the object is an Activity',
  VoidWarning: 'a voiding statement must target a StatementRef',
  SubStatementWarning: 'a SubStatement cannot contain id, stored, version, authority or another SubStatement',
  SignedContentTypeWarning: 'a signature attachment must be application/octet-stream',
  MembersTypeWarning: 'members must be Agents',
  NoMembersWarning: 'an anonymous Group needs members',
  ObjectTypeWarning: 'has the wrong objectType',
  MinMoreThanMaxWarning: 'min is more than max',
  RawLessThanMinWarning: 'raw is less than min',
  RawMoreThanMaxWarning: 'raw is more than max',
  MissingInteractionTypeWarning: 'needs an interactionType',
  InvalidComponentsWarning: 'has components the interactionType does not allow',
}

function describe(warning: Json): string {
  const name = warning.constructor?.name ?? 'Warning'
  const rule = RULES[name] ?? name
  const type = warning.typeName ? ` ${warning.typeName}` : ''
  return `${(warning.path as string[]).join('.')} ${rule}${type}`
}

const VERSION = /^1\.0(\.\d+)?$/

/** Rules xAPI 1.0.3 sets beyond the shape xapi-validation checks, each named. */
const extraRules: { name: string; check: (statement: Json) => string | null }[] = [
  {
    name: 'version is 1.0.x',
    check: (s) =>
      s.version === undefined || (typeof s.version === 'string' && VERSION.test(s.version)) ? null : 'statement.version must be 1.0.x',
  },
  {
    name: 'text PostgreSQL can store',
    check: (s) => (JSON.stringify(s).includes('\\u0000') ? 'statement contains a NUL character, which cannot be stored' : null),
  },
]

const CONTEXT_KINDS = ['parent', 'grouping', 'category', 'other']

/** A single context activity is read as a list of one (xAPI 1.0.3 §2.4.6.2: the LRS returns arrays). */
export function normalizeStatement(statement: Json): Json {
  const withLists = (context: Json | undefined) => {
    const activities = context?.contextActivities
    if (!activities || typeof activities !== 'object' || Array.isArray(activities)) return context
    const lists = Object.fromEntries(
      Object.entries(activities).map(([kind, value]) => [
        kind,
        CONTEXT_KINDS.includes(kind) && value && typeof value === 'object' && !Array.isArray(value) ? [value] : value,
      ]),
    )
    return { ...context, contextActivities: lists }
  }
  const normalized = statement.context ? { ...statement, context: withLists(statement.context) } : statement
  const object = normalized.object
  if (object?.objectType === 'SubStatement' && object.context)
    return { ...normalized, object: { ...object, context: withLists(object.context) } }
  return normalized
}

/** The first problem of one statement (`at` names it within a batch), or nothing: a 400 names the field. */
export function assertValidStatement(statement: unknown, at: string): void {
  if (!statement || typeof statement !== 'object' || Array.isArray(statement)) throw badRequest(`${at}: a statement must be a JSON object`)
  const warnings = validateStatement(statement)
  if (warnings.length) throw badRequest(`${at}: ${describe(warnings[0])}`)
  for (const rule of extraRules) {
    const problem = rule.check(statement as Json)
    if (problem) throw badRequest(`${at}: ${problem}`)
  }
}
