import { type RawBuilder, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import { decodeCursorOf, isDateKey, type PageResult, toPage } from '../../../lib/pagination.js'
import { splitIds } from '../assignments/assignments.schemas.js'
import { orgSettings } from '../../accounts/organizations/settings.queries.js'
import { activeOn, asOfDate, issueOrder, issuesOf, throughOf, type VerdictContext, verdictOf } from './issues.queries.js'
import { messageOf } from './readiness.messages.js'
import { BLOCKERS, CODES, type Code, type FleetItem, type FleetQuery, type Readiness, type ShipReadiness } from './readiness.schemas.js'

interface IssueRow {
  id: string
  user_id: string
  ship_id: string
  role: string
  through: string
  code: Code | null
  requirement: string | null
  target_type: Readiness['blockers'][number]['targetType']
  target_id: string | null
  date: string | null
  bound: string | null
  days_short: number | null
  course_title: string | null
}

/** One assignment's verdict; undefined when it is not visible (another organization, or not `onlyUserId`'s). */
export async function assignmentReadiness(
  db: Db,
  ctx: VerdictContext,
  assignmentId: string,
  onlyUserId?: string,
): Promise<Readiness | undefined> {
  const { rows } = await sql<IssueRow>`
    with ${orgSettings(ctx.orgId)}
    select a.id, a.user_id, a.ship_id, a.role, ${throughOf(ctx)} as through, i.code, i.requirement, i.target_type, i.target_id,
      i.date, i.bound, i.days_short, c.title as course_title
    from assignments a
    cross join org
    left join lateral (${issuesOf(ctx)}) i on true
    left join courses c on c.id = (case when i.target_type = 'registration' then i.requirement::uuid end)
    where a.organization_id = ${ctx.orgId} and a.id = ${assignmentId} ${onlyUserId ? sql`and a.user_id = ${onlyUserId}` : sql``}
    order by ${issueOrder(CODES)}`.execute(db)
  if (rows.length === 0) return undefined
  const [first] = rows
  const issues = rows
    .filter((row): row is IssueRow & { code: Code } => row.code !== null)
    .map((row) => ({
      code: row.code,
      requirement: row.requirement,
      targetType: row.target_type,
      targetId: row.target_id,
      message: messageOf({
        code: row.code,
        requirement: row.requirement,
        date: row.date,
        bound: row.bound,
        courseTitle: row.course_title,
        daysShort: row.days_short,
      }),
    }))
  const blockers = issues.filter((issue) => BLOCKERS.includes(issue.code))
  return {
    assignmentId: first.id,
    userId: first.user_id,
    shipId: first.ship_id,
    role: first.role,
    asOf: ctx.asOf,
    through: first.through,
    ready: blockers.length === 0,
    blockers,
    warnings: issues.filter((issue) => !BLOCKERS.includes(issue.code)),
  }
}

interface FleetRow {
  id: string
  user_id: string
  user_name: string
  ship_id: string
  ship_name: string
  role: string
  start_date: string | null
  end_date: string | null
  blocker_count: number
  warning_count: number
  codes: Code[]
}

const toFleetItem = (row: FleetRow): FleetItem => ({
  assignmentId: row.id,
  userId: row.user_id,
  userName: row.user_name,
  shipId: row.ship_id,
  shipName: row.ship_name,
  role: row.role,
  startDate: row.start_date,
  endDate: row.end_date,
  ready: row.blocker_count === 0,
  blockerCount: row.blocker_count,
  warningCount: row.warning_count,
  codes: row.codes,
})

// The fleet's order: startDate ascending with no start date last, then id; the index has the same key.
const startKey = sql`coalesce(a.start_date, 'infinity'::date)`

/** The filters of the fleet list that need no verdict, over `a`. */
function assignmentFilters(ctx: VerdictContext, query: FleetQuery, onlyUserId?: string): RawBuilder<unknown>[] {
  const filters = [sql`a.organization_id = ${ctx.orgId}`, activeOn(ctx, query.is_active)]
  if (onlyUserId) filters.push(sql`a.user_id = ${onlyUserId}`)
  if (query.user_id) filters.push(sql`a.user_id = ${query.user_id}`)
  if (query.ship_id) {
    const ids = splitIds(query.ship_id)
    filters.push(ids.length === 1 ? sql`a.ship_id = ${ids[0]}` : sql`a.ship_id = any(${ids}::uuid[])`)
  }
  return filters
}

/** The filters on the verdict `v`. */
function verdictFilters(query: FleetQuery): RawBuilder<unknown>[] {
  const filters: RawBuilder<unknown>[] = []
  if (query.ready !== undefined) filters.push(query.ready ? sql`v.blocker_count = 0` : sql`v.blocker_count > 0`)
  if (query.code) filters.push(sql`${query.code}::text = any(v.codes)`)
  return filters
}

const and = (filters: RawBuilder<unknown>[]) => sql.join(filters, sql` and `)

/**
 * One page of the fleet: one statement, whatever the fleet's size. Assignments are read in index order
 * from the cursor and judged one by one until the page is full, so the cost follows the page, not the fleet.
 */
export async function fleetReadiness(db: Db, ctx: VerdictContext, query: FleetQuery, onlyUserId?: string): Promise<PageResult<FleetItem>> {
  const cursor = decodeCursorOf(query.cursor, (key) => isDateKey(key, true))
  const filters = [...assignmentFilters(ctx, query, onlyUserId), ...verdictFilters(query)]
  if (cursor) filters.push(sql`(${startKey}, a.id) > (${cursor[0]}::date, ${cursor[1]}::uuid)`)
  const page = (trx: Db) =>
    sql<FleetRow>`
      with ${orgSettings(ctx.orgId)}
      select a.id, a.user_id, u.first_name || ' ' || u.last_name as user_name, a.ship_id, s.name as ship_name, a.role,
        a.start_date, a.end_date, v.blocker_count, v.warning_count, v.codes
      from assignments a
      cross join org
      cross join lateral (${verdictOf(ctx)}) v
      join users u on u.id = a.user_id
      join ships s on s.id = a.ship_id
      where ${and(filters)}
      order by ${startKey}, a.id
      -- The limit is written into the statement, not bound (one statement per page size): bound, the
      -- generic plan must assume a tenth of the fleet, so PostgreSQL planned every page afresh (1 ms).
      limit ${sql.lit(query.limit + 1)}`.execute(trx)
  const keyOf = (row: FleetRow): [string, string] => [row.start_date ?? 'infinity', row.id]
  if (!query.include_count) return toPage((await page(db)).rows, query.limit, keyOf, toFleetItem)
  // The page and its count read one snapshot, so a matrix replaced in between cannot make them disagree.
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const rows = (await page(trx)).rows
      const count = await fleetCount(trx, ctx, query, onlyUserId)
      return toPage(rows, query.limit, keyOf, toFleetItem, count)
    })
}

/** How many assignments the filters match; verdicts are computed only when a filter needs them. */
async function fleetCount(db: Db, ctx: VerdictContext, query: FleetQuery, onlyUserId?: string): Promise<number> {
  const verdicts = verdictFilters(query)
  const judged = verdicts.length > 0 ? sql`cross join lateral (${verdictOf(ctx)}) v` : sql``
  const { rows } = await sql<{ n: number }>`
    with ${orgSettings(ctx.orgId)}
    select count(*)::int as n from assignments a cross join org ${judged}
    where ${and([...assignmentFilters(ctx, query, onlyUserId), ...verdicts])}`.execute(db)
  return rows[0].n
}

// A stored verdict holds while the assignment's own fields, its generation (its registrations), its
// holder's (their records and sea service), the organization's (requirements and settings), the date and the default
// window are all those it was judged with (migration 1801).
const storedHolds = (ctx: VerdictContext) => sql`s.assignment_gen = a.readiness_gen and s.holder_gen = h.gen
  and s.organization_gen = org.readiness_gen
  and s.as_of = ${asOfDate(ctx)} and s.default_window_days = ${ctx.defaultWindowDays}::int and s.user_id = a.user_id and s.role = a.role
  and s.start_date is not distinct from a.start_date and s.due_date is not distinct from a.due_date and s.end_date is not distinct from a.end_date`

/**
 * The verdicts of one ship's assignments active on asOf, counted; undefined when the ship is not the
 * organization's. Verdicts come from those stored by earlier summaries where they still hold; the others
 * are judged (by the same `verdictOf` as the fleet list) and stored, in the same statement.
 */
export async function shipReadiness(db: Db, ctx: VerdictContext, shipId: string): Promise<ShipReadiness | undefined> {
  const { rows } = await sql<{ ship_id: string; assignments: number; ready: number; by_code: Record<string, number> }>`
    with org as (select o.settings, o.readiness_gen from organizations o where o.id = ${ctx.orgId}),
    verdicts as (
      select a.id, a.user_id, a.role, a.start_date, a.due_date, a.end_date, a.readiness_gen, h.gen as holder_gen, s.assignment_id is null as judged,
        coalesce(s.blocker_count, v.blocker_count) as blocker_count, coalesce(s.codes, v.codes) as codes
      from assignments a
      cross join org
      -- One index probe each, written so that no planner estimate (the stored table's statistics lag the
      -- day's first summaries) can turn them into scans: a scalar subquery, and a lateral one with a limit.
      cross join lateral (
        select coalesce((select h.gen from readiness_holders h where h.organization_id = a.organization_id and h.user_id = a.user_id), 0) as gen
      ) h
      left join lateral (
        select s.assignment_id, s.blocker_count, s.codes from readiness_verdicts s
        where s.assignment_id = a.id and s.organization_id = a.organization_id and ${storedHolds(ctx)}
        limit 1
      ) s on true
      cross join lateral (${verdictOf(ctx, sql`s.assignment_id is null`)}) v
      where a.organization_id = ${ctx.orgId} and a.ship_id = ${shipId} and ${activeOn(ctx)}
    ),
    stored as (
      insert into readiness_verdicts (assignment_id, organization_id, user_id, role, start_date, due_date, end_date, assignment_gen,
        holder_gen, organization_gen, as_of, default_window_days, blocker_count, codes)
      select v.id, ${ctx.orgId}, v.user_id, v.role, v.start_date, v.due_date, v.end_date, v.readiness_gen, v.holder_gen, org.readiness_gen,
        ${asOfDate(ctx)}, ${ctx.defaultWindowDays}::int, v.blocker_count, v.codes
      from verdicts v cross join org
      where v.judged
      -- In id order, so summaries storing the same verdicts at once wait for each other instead of deadlocking.
      order by v.id
      on conflict (assignment_id) do update set user_id = excluded.user_id, role = excluded.role, start_date = excluded.start_date,
        due_date = excluded.due_date, end_date = excluded.end_date, assignment_gen = excluded.assignment_gen, holder_gen = excluded.holder_gen,
        organization_gen = excluded.organization_gen, as_of = excluded.as_of, default_window_days = excluded.default_window_days,
        blocker_count = excluded.blocker_count, codes = excluded.codes
    )
    select s.id as ship_id, (select count(*)::int from verdicts) as assignments,
      (select count(*)::int from verdicts where blocker_count = 0) as ready,
      (select coalesce(jsonb_object_agg(code, n), '{}'::jsonb)
        from (select code, count(*)::int as n from verdicts, unnest(verdicts.codes) code group by code) c) as by_code
    from ships s
    where s.organization_id = ${ctx.orgId} and s.id = ${shipId}`.execute(db)
  const row = rows[0]
  if (!row) return undefined
  return {
    shipId: row.ship_id,
    asOf: ctx.asOf,
    assignments: row.assignments,
    ready: row.ready,
    notReady: row.assignments - row.ready,
    byCode: row.by_code,
  }
}
