import { type Expression, type RawBuilder, sql } from 'kysely'
import { DEFAULT_HORIZON_DAYS } from './settings.js'

// The settings of DECISIONS §10 as SQL expressions over an organization's stored settings (jsonb),
// so that every status, filter and sort is computed by the database with the same rule. Each takes
// the settings as an expression: `settingsOf(orgId)` or a column of a joined organizations row.

type Sql<T> = Expression<T> | RawBuilder<T>

/** The stored settings of one organization, as a scalar subquery. */
export const settingsOf = (orgId: Sql<string> | string) => sql<unknown>`(select o.settings from organizations o where o.id = ${orgId})`

/** A CTE `org` with one column, `settings`: the caller's organization's, read once per statement. */
export const orgSettings = (orgId: string) => sql`org as (select ${settingsOf(orgId)} as settings)`

/** The expiring_soon window of a document or certificate type: expiryWindowDays[type] ?? defaultExpiryWindowDays. */
export const expiryWindowDays = (settings: Sql<unknown>, type: Sql<string>, defaultDays: number) =>
  sql<number>`coalesce((${settings}->'expiryWindowDays'->>${type})::int, (${settings}->>'defaultExpiryWindowDays')::int, ${defaultDays}::int)`

/** The largest window of any type: an upper bound on expiry dates an index range can use. */
export const widestExpiryWindowDays = (settings: Sql<unknown>, defaultDays: number) =>
  sql<number>`greatest(coalesce((${settings}->>'defaultExpiryWindowDays')::int, ${defaultDays}::int),
    (select max(w.value::int) from jsonb_each_text(coalesce(${settings}->'expiryWindowDays', '{}'::jsonb)) w))`

/** How long past sign-off a document of that type must still be valid. */
export const validityMarginDays = (settings: Sql<unknown>, type: Sql<string>) =>
  sql<number>`coalesce((${settings}->'validityMarginDays'->>${type})::int, 0)`

/** How far ahead an assignment without an end date is judged. */
export const openEndedHorizonDays = (settings: Sql<unknown>) =>
  sql<number>`coalesce((${settings}->>'openEndedHorizonDays')::int, ${sql.lit(DEFAULT_HORIZON_DAYS)})`

/**
 * DECISIONS §3 expiry status against `asOf` with a window in days: no expiry date → valid;
 * before asOf → expired; within the window → expiring_soon; else valid.
 */
export const expiryStatus = (expiryDate: Sql<string | null>, asOf: Sql<string>, windowDays: Sql<number>) =>
  sql<'valid' | 'expiring_soon' | 'expired'>`case
    when ${expiryDate} is null then 'valid'
    when ${expiryDate} < ${asOf} then 'expired'
    when ${expiryDate} <= ${asOf} + ${windowDays} then 'expiring_soon'
    else 'valid'
  end`
