import { ApiError } from '../../api.js'

const STATEMENTS = '/api/v1/learn/xapi/statements'

/** The statement fields the browser shows; the rest of a statement is read as its JSON. */
export interface Statement {
  id: string
  actor: { name?: string; mbox?: string; account?: { homePage: string; name: string }; objectType?: string }
  verb: { id: string; display?: Record<string, string> }
  object: { id?: string; objectType?: string; definition?: { name?: Record<string, string> } }
  context?: { registration?: string }
  timestamp: string
  stored: string
  [field: string]: unknown
}

export interface StatementResult {
  statements: Statement[]
  /** The next page's relative URL, or '' when there is none (xAPI 1.0.3 §4.2). */
  more: string
}

/** What the browser filters on; empty strings are no filter. */
export interface StatementFilters {
  personId: string
  activity: string
  verb: string
  registration: string
  since: string
  until: string
}

/** A console user as the LRS knows them (docs/xapi.md): an account on the service's public URL, named by the user id. */
export const personAgent = (userId: string) =>
  JSON.stringify({ objectType: 'Agent', account: { homePage: window.location.origin, name: userId } })

/** The first page's URL for the filters; dates are whole days, `until` up to the end of its day. */
export function statementsUrl(typed: StatementFilters): string {
  const filters = Object.fromEntries(Object.entries(typed).map(([name, value]) => [name, value.trim()])) as StatementFilters
  const query = new URLSearchParams({ limit: '25' })
  if (filters.personId) query.set('agent', personAgent(filters.personId))
  if (filters.activity) query.set('activity', filters.activity)
  if (filters.verb) query.set('verb', filters.verb)
  if (filters.registration) query.set('registration', filters.registration)
  if (filters.since) query.set('since', `${filters.since}T00:00:00Z`)
  if (filters.until) query.set('until', `${filters.until}T23:59:59.999Z`)
  return `${STATEMENTS}?${query}`
}

/** One page of statements from the LRS, with xAPI's version header; xAPI's error message on a refusal. */
export async function fetchStatements(authorizedFetch: typeof fetch, url: string): Promise<StatementResult> {
  const response = await authorizedFetch(new URL(url, window.location.origin), {
    headers: { 'x-experience-api-version': '1.0.3', accept: 'application/json' },
  })
  const body = await response.json().catch(() => null)
  if (!response.ok) {
    const message = typeof body?.message === 'string' ? body.message : `The LRS answered ${response.status}`
    throw new ApiError(response.status, message)
  }
  return body as StatementResult
}

/** A language map's text in English if there is one, else its first. */
export function display(map: Record<string, string> | undefined, fallback: string): string {
  if (!map) return fallback
  return map['en-US'] ?? map.en ?? Object.values(map)[0] ?? fallback
}
