import { type Expression, sql } from 'kysely'
import type { IssueList } from './errors.js'

/** Today's calendar date in UTC, the reference for expiry status and isActive. */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10)
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** The same "today", computed by the database so filters agree with responses. */
export const todayUtcSql = sql<string>`(now() at time zone 'utc')::date`

export const iso = (value: Date) => value.toISOString()
export const isoOrNull = (value: Date | null) => (value ? value.toISOString() : null)

/** The date-order rule (DECISIONS §3, §4): a later date may not be before its earlier one; a missing date breaks nothing. */
const outOfOrder = (earlier: string | null | undefined, later: string | null | undefined): boolean =>
  !!earlier && !!later && later < earlier

/** The same rule in SQL, for set-based checks: true only when both dates are set and out of order. */
export const outOfOrderSql = (earlier: Expression<string | null>, later: Expression<string | null>) => sql<boolean>`${later} < ${earlier}`

type Dates<F extends string> = { readonly [K in F]?: string | null }

/**
 * Checks the date-order rule on the dates a write leaves: each `[earlier, later]` pair of wire fields,
 * the value `sent` in the request else the `current` one. A broken pair is reported at the date this
 * request sent, the later one when both were sent (DECISIONS §9); a pair it did not touch is not.
 */
export function checkDateOrder<F extends string>(
  issues: IssueList,
  pairs: readonly (readonly [F, F])[],
  sent: Dates<F>,
  current: Dates<F> = {},
): IssueList {
  const value = (field: F) => (sent[field] !== undefined ? sent[field] : current[field])
  for (const [earlier, later] of pairs) {
    if (!outOfOrder(value(earlier), value(later))) continue
    const field = sent[later] !== undefined ? later : sent[earlier] !== undefined ? earlier : null
    if (field) issues.add(['body', field], `${later} must not be before ${earlier}`, 'value_error')
  }
  return issues
}

/** A timestamp in ISO 8601 text computed by the database, to the millisecond as `iso` writes it, or to the microsecond. */
export const isoSql = (value: Expression<Date>, precision: 'MS' | 'US' = 'MS') =>
  sql<string>`to_char(${value} at time zone 'utc', ${sql.lit(`YYYY-MM-DD"T"HH24:MI:SS.${precision}"Z"`)})`
