import { type RawBuilder, sql } from 'kysely'

// DECISIONS §14's counting rules: the sea-service summary and the readiness rule read `countedPeriods`,
// the SQL function `sea_service_counted_periods` (src/db/rules/sea-service.sql), which the stored totals
// also use, so the rule is written once.

export interface CountScope {
  orgId: RawBuilder<unknown>
  /** One person's periods. */
  userId: RawBuilder<unknown>
  /** Only days up to this date (inclusive) count. */
  asOf: RawBuilder<unknown>
}

/**
 * One row per experience row starting on or before asOf: (id, user_id, position, ship_type, start_date,
 * end_date, created_at, source, assignment_id, verified, own, counted), where `own` is its own days up to
 * asOf (a daterange) and `counted` the days it contributes (a datemultirange, empty unless verified).
 */
export function countedPeriods({ orgId, userId, asOf }: CountScope): RawBuilder<unknown> {
  return sql`select * from sea_service_counted_periods(${orgId}, ${userId}, ${asOf})`
}

/** The number of days in a datemultirange of bounded ranges. */
export const daysIn = (days: RawBuilder<unknown>) => sql<number>`(select coalesce(sum(upper(d) - lower(d)), 0) from unnest(${days}) d)`

/** The days after `asOf` minus `span` up to asOf, as a datemultirange to intersect with. */
export const lastSpan = (asOf: RawBuilder<unknown>, span: '5 years' | '6 months') =>
  sql`datemultirange(daterange((${asOf} - interval ${sql.lit(span)})::date, ${asOf}, '(]'))`
