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
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/

export function uuidParam(name: string, value: string): string {
  if (!UUID.test(value)) throw badRequest(`${name}: not a UUID`)
  return value.toLowerCase()
}

function booleanParam(name: string, value: string | undefined): boolean {
  if (value === undefined) return false
  if (value !== 'true' && value !== 'false') throw badRequest(`${name}: true or false`)
  return value === 'true'
}

export function timestampParam(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const time = new Date(value)
  if (!TIMESTAMP.test(value) || Number.isNaN(time.getTime())) throw badRequest(`${name}: not an ISO 8601 timestamp with a time zone`)
  return time.toISOString()
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
  const limit = query.limit === undefined ? 0 : Number(query.limit)
  if (!Number.isInteger(limit) || limit < 0 || !/^\d+$/.test(query.limit ?? '0')) throw badRequest('limit: a whole number, 0 or more')
  const filter: StatementFilter = {
    agentKey: query.agent === undefined ? undefined : (agentKey(parseAgentParam(query.agent).agent) as string),
    relatedAgents: booleanParam('related_agents', query.related_agents),
    verbId: query.verb,
    activityId: query.activity,
    relatedActivities: booleanParam('related_activities', query.related_activities),
    registration: query.registration === undefined ? undefined : uuidParam('registration', query.registration),
    since: timestampParam('since', query.since),
    until: timestampParam('until', query.until),
    ascending: booleanParam('ascending', query.ascending),
    limit: limit === 0 || limit > MAX_LIMIT ? MAX_LIMIT : limit,
  }
  return { filter, ...presentation(query) }
}
