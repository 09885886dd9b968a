import { type RawBuilder, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import { decodeCursorOf, isDateKey, type PageResult, toPage } from '../../../lib/pagination.js'
import { splitIds } from '../assignments/assignments.schemas.js'
import { RECORD_KINDS } from '../record-kinds/record-kinds.js'
import { expiringRecordsSql } from '../reviewed-records/reviewed-reads.queries.js'
import { expiryStatus, expiryWindowDays, settingsOf, widestExpiryWindowDays } from '../../accounts/organizations/settings.queries.js'
import { type ExpiringItem, type ExpiringQuery, splitTypes } from './expiring.schemas.js'

interface ExpiringRow {
  target_type: ExpiringItem['targetType']
  id: string
  user_id: string
  user_name: string
  type: string
  expiry_date: string
  status: ExpiringItem['status']
  days_left: number
  verification_status: ExpiringItem['verificationStatus']
}

const toItem = (row: ExpiringRow): ExpiringItem => ({
  targetType: row.target_type,
  targetId: row.id,
  userId: row.user_id,
  userName: row.user_name,
  type: row.type,
  expiryDate: row.expiry_date,
  status: row.status,
  daysLeft: row.days_left,
  verificationStatus: row.verification_status,
})

interface Scope {
  orgId: string
  asOf: string
  defaultWindowDays: number
}

// Settings as a scalar subquery (evaluated once), not a joined row: a join would cost the plan its
// order, which comes from merging the two expiry indexes.
const settings = (scope: Scope) => settingsOf(scope.orgId)

/** The window of a record: within_days when given, else its type's window from the settings. */
const windowOf = (scope: Scope, query: ExpiringQuery) =>
  query.within_days === undefined
    ? expiryWindowDays(settings(scope), sql`r.type`, scope.defaultWindowDays)
    : sql<number>`${query.within_days}::int`

/** The record's expiry status against as_of: the same expression as every other expiry status. */
const statusOf = (scope: Scope, query: ExpiringQuery) => expiryStatus(sql`r.expiry_date`, sql`${scope.asOf}::date`, windowOf(scope, query))

/**
 * Over `r` (both kinds of record, see `records`): the organization's, expired or expiring soon, not
 * rejected, and the request's filters. The widest window also bounds the expiry date, so the index
 * range stops there.
 */
function filters(scope: Scope, query: ExpiringQuery): RawBuilder<unknown>[] {
  const asOf = sql`${scope.asOf}::date`
  const widest =
    query.within_days === undefined ? widestExpiryWindowDays(settings(scope), scope.defaultWindowDays) : sql`${query.within_days}::int`
  const status = statusOf(scope, query)
  const list = [
    sql`r.organization_id = ${scope.orgId}`,
    sql`r.expiry_date is not null`,
    query.status ? sql`${status} = ${query.status}` : sql`${status} in ('expired', 'expiring_soon')`,
    sql`r.expiry_date <= ${asOf} + ${widest}`,
    sql`(v.status is null or v.status <> 'rejected')`,
  ]
  // The same conditions as index ranges: the status expression alone is not one.
  if (query.status) list.push(query.status === 'expired' ? sql`r.expiry_date < ${asOf}` : sql`r.expiry_date >= ${asOf}`)
  if (query.type) list.push(sql`r.type = any(${splitTypes(query.type)}::text[])`)
  if (query.user_id) list.push(sql`r.user_id = ${query.user_id}`)
  if (query.ship_id) {
    list.push(sql`exists (
      select 1 from assignments a
      where a.organization_id = ${scope.orgId} and a.user_id = r.user_id and a.ship_id = any(${splitIds(query.ship_id)}::uuid[])
        and (a.end_date is null or a.end_date >= ${asOf}))`)
  }
  return list
}

/**
 * Every kind of expiring record as one relation. Filters go outside the union (in `filters`): only
 * then does PostgreSQL merge the kinds' expiry indexes in order instead of sorting every table.
 */
const RECORDS = sql`(${expiringRecordsSql(RECORD_KINDS)}) r`

function select(columns: RawBuilder<unknown>, where: RawBuilder<unknown>[]) {
  return sql`
    select ${columns}
    from ${RECORDS}
    join users u on u.id = r.user_id
    left join verifications v on v.target_type = r.target_type and v.target_id = r.id
    where ${sql.join(where, sql` and `)}`
}

/** One page of the fleet expiry list, soonest expiry first; the count (when asked) over the same filters. */
export async function listExpiring(db: Db, scope: Scope, query: ExpiringQuery): Promise<PageResult<ExpiringItem>> {
  const cursor = decodeCursorOf(query.cursor, (key) => isDateKey(key))
  const where = filters(scope, query)
  const after = cursor ? [sql`(r.expiry_date, r.id) > (${cursor[0]}::date, ${cursor[1]}::uuid)`] : []
  const columns = sql`r.target_type, r.id, r.user_id, u.first_name || ' ' || u.last_name as user_name, r.type, r.expiry_date,
    ${statusOf(scope, query)} as status, r.expiry_date - ${scope.asOf}::date as days_left, coalesce(v.status, 'pending') as verification_status`
  const page = sql<ExpiringRow>`${select(columns, [...where, ...after])} order by r.expiry_date, r.id limit ${query.limit + 1}`
  const [rows, count] = await Promise.all([
    page.execute(db),
    query.include_count ? sql<{ n: number }>`${select(sql`count(*)::int as n`, where)}`.execute(db) : null,
  ])
  return toPage(rows.rows, query.limit, (row) => [row.expiry_date, row.id], toItem, count ? count.rows[0].n : null)
}
