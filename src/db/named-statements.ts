import type pg from 'pg'

/**
 * Pattern searches stay unnamed, planned with their value each time: how many rows `ilike '%term%'`
 * matches depends on the term, which a generic plan cannot see (measured: PostgreSQL CPU per search
 * rose 2.5× when the search statement was prepared).
 */
const PLANNED_EACH_TIME = /\b(i?like)\b/i

/**
 * Written into a pattern search whose plan is the same for every pattern (the pattern filters a bounded
 * window of rows read by an index, `courses.queries.ts`): such a text is named like any other.
 */
export const SAME_PLAN_FOR_ANY_PATTERN = '/* same plan for any pattern */'

/** Prepared statements kept per connection: far above the app's fixed set of statements. */
export const STATEMENTS_PER_CONNECTION = 500

interface ParsedStatements {
  connection?: { parsedStatements?: Record<string, string> }
}

/**
 * Makes every parameterized statement of this client a named prepared statement, so that
 * PostgreSQL parses (and, once its plan cache judges it safe, plans) each statement text once per
 * connection instead of on every execution. The names live in an LRU of `capacity` texts: SQL built
 * from dynamic parts (a PATCH's column set) cannot grow a connection's statements without bound; the
 * least recently used one is deallocated on the server and forgotten by pg, which otherwise keeps
 * every name for the connection's life.
 */
export function nameStatements(client: pg.ClientBase, capacity = STATEMENTS_PER_CONNECTION): void {
  const names = new Map<string, string>()
  let issued = 0
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>
  const forget = (name: string) => {
    query(`deallocate ${name}`).then(
      () => delete (client as ParsedStatements).connection?.parsedStatements?.[name],
      // A lost connection takes its statements with it; pg reports the loss to the next query.
      () => {},
    )
  }
  const named = (text: string): string => {
    let name = names.get(text)
    if (name !== undefined) {
      names.delete(text)
    } else {
      name = `sw${++issued}`
      if (names.size >= capacity) {
        const [oldest, oldName] = names.entries().next().value as [string, string]
        names.delete(oldest)
        forget(oldName)
      }
    }
    names.set(text, name)
    return name
  }
  // A text already named passed the pattern test when it was named: the test (a scan of the whole text,
  // several KB for a create) runs once per text, not once per execution.
  const nameable = (text: string) => names.has(text) || !PLANNED_EACH_TIME.test(text) || text.includes(SAME_PLAN_FOR_ANY_PATTERN)
  // Kysely calls query(text, values); statements without parameters (begin, commit) stay simple queries.
  client.query = ((text: unknown, values?: unknown, callback?: unknown) =>
    typeof text === 'string' && Array.isArray(values) && values.length > 0 && callback === undefined && nameable(text)
      ? query({ name: named(text), text, values })
      : query(text, values, callback)) as typeof client.query
}
