import { sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import { roleKey, trimmed } from '../../../lib/role-key.js'
import { countedPeriods, daysIn, lastSpan } from './counted-days.queries.js'
import type { SeaService } from './sea-service.schemas.js'

/** STCW regulation I/11: a year of seagoing service in the last five years revalidates a certificate. */
const REVALIDATION_DAYS = 365

interface SummaryRow {
  total_days: number
  five_years: number
  six_months: number
  periods: SeaService['periods']
  overlaps: SeaService['overlaps']
  by_role: SeaService['byRole']
  by_ship_type: SeaService['byShipType']
}

export const revalidation = (lastFiveYearsDays: number) => ({
  eligible: lastFiveYearsDays >= REVALIDATION_DAYS,
  daysNeeded: Math.max(0, REVALIDATION_DAYS - lastFiveYearsDays),
})

const periodOrder = (alias: string) => sql.raw(`${alias}.start_date, ${alias}.created_at, ${alias}.id`)

/** One person's sea-service summary in one statement; undefined when the user is not the organization's. */
export async function seaServiceSummary(db: Db, orgId: string, userId: string, asOf: string): Promise<SeaService | undefined> {
  const day = sql`${asOf}::date`
  const { rows } = await sql<SummaryRow>`
    with p as (${countedPeriods({ orgId: sql`${orgId}::uuid`, userId: sql`${userId}::uuid`, asOf: day })}),
    d as (
      select p.*, upper(p.own) - lower(p.own) as days, ${daysIn(sql`p.counted`)}::int as counted_days,
        ${daysIn(sql`p.counted * ${lastSpan(day, '5 years')}`)}::int as five_years,
        ${daysIn(sql`p.counted * ${lastSpan(day, '6 months')}`)}::int as six_months
      from p
    )
    select
      (select coalesce(sum(d.counted_days), 0)::int from d) as total_days,
      (select coalesce(sum(d.five_years), 0)::int from d) as five_years,
      (select coalesce(sum(d.six_months), 0)::int from d) as six_months,
      (select coalesce(json_agg(json_build_object('source', d.source, 'id', d.id, 'shipName', s.name, 'shipType', d.ship_type,
          'role', d.position, 'startDate', d.start_date, 'endDate', d.end_date, 'days', d.days, 'countedDays', d.counted_days)
          order by ${periodOrder('d')}), '[]')
        from d
        left join assignments a on a.id = d.assignment_id and a.organization_id = ${orgId}
        left join ships s on s.id = a.ship_id) as periods,
      (select coalesce(json_agg(json_build_object('ids', json_build_array(x.id, y.id), 'days', upper(x.own * y.own) - lower(x.own * y.own))
          order by ${periodOrder('x')}, ${periodOrder('y')}), '[]')
        from d x join d y on x.verified and y.verified and x.own && y.own
          and (x.start_date, x.created_at, x.id) < (y.start_date, y.created_at, y.id)) as overlaps,
      (select coalesce(json_agg(json_build_object('role', r.role, 'days', r.days) order by r.days desc, r.role collate "C"), '[]')
        from (
          -- Shown as first written: the earliest-created row's position, trimmed.
          select (array_agg(${trimmed(sql`d.position`)} order by d.created_at, d.id))[1] as role, sum(d.counted_days)::int as days
          from d where d.verified group by ${roleKey(sql`d.position`)}
        ) r where r.days > 0) as by_role,
      (select coalesce(json_agg(json_build_object('shipType', t.ship_type, 'days', t.days)
          order by t.days desc, t.ship_type collate "C" nulls last), '[]')
        from (select d.ship_type, sum(d.counted_days)::int as days from d where d.verified group by d.ship_type) t
        where t.days > 0) as by_ship_type
    from users u
    where u.organization_id = ${orgId} and u.id = ${userId}`.execute(db)
  const row = rows[0]
  if (!row) return undefined
  return {
    asOf,
    totalDays: row.total_days,
    byRole: row.by_role,
    byShipType: row.by_ship_type,
    periods: row.periods,
    overlaps: row.overlaps,
    lastFiveYearsDays: row.five_years,
    lastSixMonthsDays: row.six_months,
    revalidation: revalidation(row.five_years),
  }
}
