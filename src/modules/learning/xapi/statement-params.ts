import { agentKey, parseAgentParam } from './agents.js'
import { badRequest } from './errors.js'
import type { StatementFilter } from './statements.read.queries.js'

/** The parameters GET /statements takes (xAPI 1.0.3 §2.1.3); any other is a 400. */
const QUERY_PARAMS = new Set([
  'agent',
  'verb',
  'activity',
  'registration',
  'related_activities',
  'related_agents',
  'since',
  'until',
  'limit',
  'format',
  'attachments',
  'ascending',
])
const SINGLE_PARAMS = new Set(['statementId', 'voidedStatementId', 'format', 'attachments'])

export const MAX_LIMIT = 500
const FORMATS = ['exact', 'ids', 'canonical'] as const
export type Format = (typeof FORMATS)[number]

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
// ISO 8601 date-time with a zone (xAPI Timestamps); anything Date cannot read is refused too.
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/
// An absolute IRI: a scheme, then no white space (verb and activity ids, xAPI 1.0.3 §4.2.1).
const IRI = /^[a-z][a-z0-9+.-]*:\S+$/i

export function uuidParam(name: string, value: string): string {
  if (!UUID.test(value)) throw badRequest(`${name}: not a UUID`)
  return value.toLowerCase()
}

function booleanParam(name: string, value: string | undefined): boolean {
  if (value === undefined) return false
  if (value !== 'true' && value !== 'false') throw badRequest(`${name}: true or false`)
  return value === 'true'
}

/** A date that exists (no 30 February): Date would roll it over into the next month. */
function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** A timestamp parameter, as the instant in UTC; years 0001–9999 only, the range the database stores as given. */
export function timestampParam(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const match = TIMESTAMP.exec(value)
  const time = new Date(value)
  if (!match || Number.isNaN(time.getTime()) || !isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) {
    throw badRequest(`${name}: not an ISO 8601 timestamp with a time zone`)
  }
  const year = time.getUTCFullYear()
  if (year < 1 || year > 9999) throw badRequest(`${name}: a time between the years 0001 and 9999 (UTC)`)
  return time.toISOString()
}

function iriParam(name: string, value: string | undefined): string | undefined {
  if (value !== undefined && !IRI.test(value)) throw badRequest(`${name}: not an IRI`)
  return value
}

export interface Presentation {
  format: Format
  attachments: boolean
}

function presentation(query: Record<string, string>): Presentation {
  const format = (query.format ?? 'exact') as Format
  if (!FORMATS.includes(format)) throw badRequest('format: exact, ids or canonical')
  return { format, attachments: booleanParam('attachments', query.attachments) }
}

/** GET of one statement: `statementId` or `voidedStatementId`, with only `format` and `attachments` beside it. */
export function singleParams(query: Record<string, string>) {
  const unknown = Object.keys(query).find((name) => !SINGLE_PARAMS.has(name))
  if (unknown) throw badRequest(`${unknown}: not allowed with statementId or voidedStatementId`)
  if (query.statementId !== undefined && query.voidedStatementId !== undefined)
    throw badRequest('statementId and voidedStatementId: give one')
  const voided = query.voidedStatementId !== undefined
  const id = uuidParam(voided ? 'voidedStatementId' : 'statementId', voided ? query.voidedStatementId : query.statementId)
  return { id, voided, ...presentation(query) }
}

/** GET of many statements: the filter and how to present the answer. */
export function queryParams(query: Record<string, string>): { filter: StatementFilter } & Presentation {
  const unknown = Object.keys(query).find((name) => !QUERY_PARAMS.has(name))
  if (unknown) throw badRequest(`${unknown}: not a parameter of GET statements`)
  // Decimal digits only (docs/decisions/lrs.md, lrs-6): 0 or a number past the cap asks for the fullest page.
  if (query.limit !== undefined && !/^\d+$/.test(query.limit)) throw badRequest('limit: a whole number in decimal digits, 0 or more')
  const limit = query.limit === undefined ? 0 : Number(query.limit)
  const filter: StatementFilter = {
    agentKey: query.agent === undefined ? undefined : (agentKey(parseAgentParam(query.agent).agent) as string),
    relatedAgents: booleanParam('related_agents', query.related_agents),
    verbId: iriParam('verb', query.verb),
    activityId: iriParam('activity', query.activity),
    relatedActivities: booleanParam('related_activities', query.related_activities),
    registration: query.registration === undefined ? undefined : uuidParam('registration', query.registration),
    since: timestampParam('since', query.since),
    until: timestampParam('until', query.until),
    ascending: booleanParam('ascending', query.ascending),
    limit: limit === 0 || limit > MAX_LIMIT ? MAX_LIMIT : limit,
  }
  return { filter, ...presentation(query) }
}
