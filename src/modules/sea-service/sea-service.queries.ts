import { sql } from 'kysely'
import type { Db } from '../../db/database.js'
import { decodeCursorOf, type PageResult, toPage } from '../../lib/pagination.js'
import { roleKey, trimmed } from '../../lib/role-key.js'
import { isUuid } from '../../lib/validation.js'
import { countedPeriods, daysIn, lastSpan } from './counted-days.queries.js'
import type { FleetSeaServiceItem, FleetSeaServiceQuery, SeaService } from './sea-service.schemas.js'

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

const revalidation = (lastFiveYearsDays: number) => ({
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

interface FleetRow {
  /** Null on the one row of a page past the end (the count's row). */
  user_id: string | null
  user_name: string
  total_days: number
  days_in_role: number | null
  five_years: number
  total_count: number | null
}

const toFleetItem = (row: FleetRow & { user_id: string }): FleetSeaServiceItem => ({
  userId: row.user_id,
  userName: row.user_name,
  totalDays: row.total_days,
  daysInRole: row.days_in_role,
  lastFiveYearsDays: row.five_years,
  eligible: revalidation(row.five_years).eligible,
})

/** A (totalDays, userId) cursor key. */
const isFleetKey = ([days, id]: [string, string]) => /^\d{1,9}$/.test(days) && isUuid(id)

/**
 * One page of the fleet's sea service in one statement, whatever the fleet's size: every person's
 * counted days are summed, filtered, ordered (most days first, then userId) and cut at the page.
 */
export async function fleetSeaService(
  db: Db,
  orgId: string,
  asOf: string,
  query: FleetSeaServiceQuery,
): Promise<PageResult<FleetSeaServiceItem>> {
  const cursor = decodeCursorOf(query.cursor, isFleetKey)
  const day = sql`${asOf}::date`
  const inRole =
    query.role === undefined
      ? sql`null::int`
      : sql`coalesce(sum(c.days) filter (where ${roleKey(sql`c.position`)} = ${roleKey(sql`${query.role}::text`)}), 0)::int`
  const filters = [sql`t.total_days > 0`]
  if (query.min_days !== undefined)
    filters.push(sql`${query.role === undefined ? sql`t.total_days` : sql`t.days_in_role`} >= ${query.min_days}`)
  const { rows } = await sql<FleetRow>`
    with c as (
      select p.user_id, p.position, ${daysIn(sql`p.counted`)} as days, ${daysIn(sql`p.counted * ${lastSpan(day, '5 years')}`)} as five_years
      from (${countedPeriods({ orgId: sql`${orgId}::uuid`, asOf: day })}) p
      where p.verified ${query.ship_type === undefined ? sql`` : sql`and p.ship_type = ${query.ship_type}`}
    ),
    t as (
      select c.user_id, sum(c.days)::int as total_days, ${inRole} as days_in_role, sum(c.five_years)::int as five_years
      from c group by c.user_id
    ),
    f as (
      select t.*, u.first_name || ' ' || u.last_name as user_name
      from t join users u on u.id = t.user_id and u.organization_id = ${orgId}
      where ${sql.join(filters, sql` and `)}
    )
    -- The count rides on a one-row select, so that a page past the end still carries it.
    select n.total_count, page.*
    from (select ${query.include_count ? sql`(select count(*)::int from f)` : sql`null::int`} as total_count) n
    left join lateral (
      select f.* from f
      ${cursor ? sql`where (f.total_days < ${Number(cursor[0])} or (f.total_days = ${Number(cursor[0])} and f.user_id > ${cursor[1]}::uuid))` : sql``}
      order by f.total_days desc, f.user_id
      limit ${sql.lit(query.limit + 1)}
    ) page on true
    order by page.total_days desc, page.user_id`.execute(db)
  const count = query.include_count ? rows[0].total_count : null
  const found = rows.filter((row): row is FleetRow & { user_id: string } => row.user_id !== null)
  return toPage(found, query.limit, (row) => [String(row.total_days), row.user_id], toFleetItem, count)
}
