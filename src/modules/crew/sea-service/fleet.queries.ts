import { type RawBuilder, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import { decodeCursorOf, type PageResult, toPage } from '../../../lib/pagination.js'
import { roleKey } from '../../../lib/role-key.js'
import { isUuid } from '../../../lib/validation.js'
import { daysIn, lastSpan } from './counted-days.queries.js'
import type { FleetSeaServiceItem, FleetSeaServiceQuery } from './sea-service.schemas.js'
import { revalidation } from './sea-service.queries.js'

// The fleet list reads the totals that migration 2904's triggers keep per person (and per ship type): a
// total settled at the date asked is `rank_days`, plus the days since RANK_EPOCH when its last period is
// open, so the closed and the open totals each come in index order; the few not settled at that date
// (a period ending after it) are read from their counted days.
const RANK_EPOCH = sql`date '2000-01-01'`

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
 * One page of the fleet's sea service in one statement, whose cost follows the page, not the fleet:
 * people with any counted day up to asOf, filtered, most days first (then userId), cut at the page.
 */
export async function fleetSeaService(
  db: Db,
  orgId: string,
  asOf: string,
  query: FleetSeaServiceQuery,
): Promise<PageResult<FleetSeaServiceItem>> {
  const cursor = decodeCursorOf(query.cursor, isFleetKey)
  const day = sql`${asOf}::date`
  const upToDay = (days: RawBuilder<unknown>) => daysIn(sql`${days} * datemultirange(daterange(null, ${day}, '[]'))`)
  const limit = sql.lit(query.limit + 1)
  const scope = sql`t.organization_id = ${orgId}::uuid and t.ship_type = ${query.ship_type ?? ''}`
  // daysInRole: the days of the person's periods in the role (of the ship type, when given).
  const inRole =
    query.role === undefined
      ? sql``
      : sql`cross join lateral (select coalesce(sum(${upToDay(sql`p.counted`)}), 0)::int as days from sea_service_periods p
          where p.user_id = t.user_id and p.role_key = ${roleKey(sql`${query.role}::text`)}
          ${query.ship_type === undefined ? sql`` : sql`and p.ship_type = ${query.ship_type}`}) r`
  const roleDays = query.role === undefined ? sql`null::int` : sql`r.days`
  const minDays = query.min_days
  const inRoleAtLeast = query.role !== undefined && minDays !== undefined ? sql`and r.days >= ${minDays}` : sql``

  /** Conditions on a total: at least min_days (days in a role never exceed the total), and past the cursor on a page. */
  const totalConditions = (total: RawBuilder<unknown>, paged: boolean) => {
    const conditions = [sql`${total} > 0`]
    if (cursor && paged)
      conditions.push(
        sql`${total} <= ${Number(cursor[0])}`,
        sql`(${total} < ${Number(cursor[0])} or ${sql.ref('t.user_id')} > ${cursor[1]}::uuid)`,
      )
    if (minDays !== undefined) conditions.push(sql`${total} >= ${minDays}`)
    return sql.join(conditions, sql` and `)
  }
  // Each condition is written on rank_days itself (the offset moved to the other side) so the index bounds the scan.
  const settled = (open: boolean) => {
    const offset = open ? sql`(${day} - ${RANK_EPOCH})` : sql`0`
    const conditions = [scope, sql`t.open = ${open}`, sql`t.settled_on <= ${day}`]
    if (cursor)
      conditions.push(
        sql`t.rank_days <= ${Number(cursor[0])} - ${offset}`,
        sql`(t.rank_days < ${Number(cursor[0])} - ${offset} or t.user_id > ${cursor[1]}::uuid)`,
      )
    if (minDays !== undefined) conditions.push(sql`t.rank_days >= ${minDays} - ${offset}`)
    return sql`(select t.user_id, t.counted, t.rank_days + ${offset} as total_days, ${roleDays} as days_in_role
      from sea_service_totals t ${inRole}
      where ${sql.join(conditions, sql` and `)} ${inRoleAtLeast}
      order by t.rank_days desc, t.user_id limit ${limit})`
  }
  const unsettled = sql`(select t.* from (
      select t.user_id, t.counted, ${upToDay(sql`t.counted`)}::int as total_days, ${roleDays} as days_in_role
      from sea_service_totals t ${inRole}
      where ${scope} and t.settled_on > ${day} ${inRoleAtLeast}
    ) t
    where ${totalConditions(sql`t.total_days`, true)}
    order by t.total_days desc, t.user_id limit ${limit})`
  const count = sql`(select count(*)::int from sea_service_totals t ${inRole}
    where ${scope} ${inRoleAtLeast} and ${totalConditions(
      sql`(case when t.settled_on <= ${day} then t.rank_days + (case when t.open then ${day} - ${RANK_EPOCH} else 0 end)
        else ${upToDay(sql`t.counted`)} end)`,
      false,
    )})`

  const { rows } = await sql<FleetRow>`
    -- The count rides on a one-row select, so that a page past the end still carries it.
    select n.total_count, page.*
    from (select ${query.include_count ? count : sql`null::int`} as total_count) n
    left join lateral (
      select k.user_id, u.first_name || ' ' || u.last_name as user_name, k.total_days, k.days_in_role,
        ${daysIn(sql`k.counted * ${lastSpan(day, '5 years')}`)}::int as five_years
      from (${settled(false)} union all ${settled(true)} union all ${unsettled}) k
      join users u on u.id = k.user_id and u.organization_id = ${orgId}
      order by k.total_days desc, k.user_id
      limit ${limit}
    ) page on true
    order by page.total_days desc, page.user_id`.execute(db)
  const total = query.include_count ? rows[0].total_count : null
  const found = rows.filter((row): row is FleetRow & { user_id: string } => row.user_id !== null)
  return toPage(found, query.limit, (row) => [String(row.total_days), row.user_id], toFleetItem, total)
}
