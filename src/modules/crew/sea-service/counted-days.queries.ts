import { type RawBuilder, sql } from 'kysely'

// DECISIONS §14's counting rules, written once as SQL: the sea-service summary, the fleet list and the
// readiness rule all read `countedPeriods`. Overlaps are resolved with ranges, never period by period:
// a verified period counts its days minus those of the verified periods ordered before it (earlier
// start, then earlier created), taken as one multirange by a window aggregate.

export interface CountScope {
  orgId: RawBuilder<unknown>
  /** One person's periods; every person of the organization without it. */
  userId?: RawBuilder<unknown>
  /** Only days up to this date (inclusive) count. */
  asOf: RawBuilder<unknown>
}

/**
 * One row per experience row starting on or before asOf: (id, user_id, position, ship_type, start_date,
 * end_date, created_at, source, assignment_id, verified, own, counted), where `own` is its own days up to
 * asOf (a daterange) and `counted` the days it contributes (a datemultirange, empty unless verified).
 */
export function countedPeriods({ orgId, userId, asOf }: CountScope): RawBuilder<unknown> {
  return sql`
    select e.id, e.user_id, e.position, e.ship_type, e.start_date, e.end_date, e.created_at, e.source, e.assignment_id, e.verified,
      daterange(e.start_date, least(e.end_date, ${asOf}), '[]') as own,
      case when e.verified
        then (datemultirange(e.period) - coalesce(range_agg(e.period) filter (where e.verified) over earlier, '{}'::datemultirange))
          * datemultirange(daterange(null, ${asOf}, '[]'))
        else '{}'::datemultirange
      end as counted
    from (
      select x.id, x.user_id, x.position, x.ship_type, x.start_date, x.end_date, x.created_at, x.source, x.assignment_id,
        daterange(x.start_date, x.end_date, '[]') as period, coalesce(v.status = 'verified', false) as verified
      from experiences x
      left join verifications v on v.target_type = 'experience' and v.target_id = x.id
      where x.organization_id = ${orgId} ${userId ? sql`and x.user_id = ${userId}` : sql``} and x.start_date <= ${asOf}
    ) e
    window earlier as (partition by e.user_id order by e.start_date, e.created_at, e.id rows between unbounded preceding and 1 preceding)`
}

/** The number of days in a datemultirange of bounded ranges. */
export const daysIn = (days: RawBuilder<unknown>) => sql<number>`(select coalesce(sum(upper(d) - lower(d)), 0) from unnest(${days}) d)`

/** The days after `asOf` minus `span` up to asOf, as a datemultirange to intersect with. */
export const lastSpan = (asOf: RawBuilder<unknown>, span: '5 years' | '6 months') =>
  sql`datemultirange(daterange((${asOf} - interval ${sql.lit(span)})::date, ${asOf}, '(]'))`
