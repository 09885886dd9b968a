import { type RawBuilder, sql } from 'kysely'
import { roleKey } from '../../../lib/role-key.js'
import { countedPeriods, daysIn } from '../sea-service/counted-days.queries.js'
import { expiryWindowDays, openEndedHorizonDays, validityMarginDays } from '../../accounts/organizations/settings.queries.js'
import { BLOCKERS, type Code } from './readiness.schemas.js'

// DECISIONS §10's readiness rules, written once as SQL. The single verdict, the fleet list and the
// ship summary all select from `issuesOf`, so they cannot disagree. Every fragment here is evaluated
// per assignment, over two names the caller provides:
//   a    an assignments row (id, organization_id, user_id, role, start_date, due_date, end_date)
//   org  the CTE of `orgSettings` (the organization's stored settings)

export interface VerdictContext {
  orgId: string
  /** The date judged on, 'YYYY-MM-DD'. */
  asOf: string
  /** EXPIRING_SOON_DAYS: the window of types the organization set none for. */
  defaultWindowDays: number
}

const settings = sql<unknown>`org.settings`

export const asOfDate = (ctx: VerdictContext) => sql<string>`${ctx.asOf}::date`

/** The assignment's endDate, or asOf + openEndedHorizonDays when it has none. */
export const throughOf = (ctx: VerdictContext) => sql<string>`coalesce(a.end_date, ${asOfDate(ctx)} + ${openEndedHorizonDays(settings)})`

/** Active on asOf: no endDate, or an endDate on or after asOf. */
export const activeOn = (ctx: VerdictContext, active = true) =>
  active ? sql`(a.end_date is null or a.end_date >= ${asOfDate(ctx)})` : sql`a.end_date < ${asOfDate(ctx)}`

const list = (codes: readonly Code[]) => sql.join(codes.map((code) => sql.lit(code)))

/**
 * The issues of assignment `a`, one row each: (code, requirement, target_type, target_id, date, bound,
 * days_short), where `date` is the document's expiry date, the course's due date or the date sea service
 * is counted to, `bound` the date a document had to reach and `days_short` the sea service missing (for
 * the messages).
 */
export function issuesOf(ctx: VerdictContext): RawBuilder<unknown> {
  const asOf = asOfDate(ctx)
  const through = throughOf(ctx)
  return sql`
    select c.code, rq.type as requirement, case when p.id is null then 'requirement' else rq.target_type end as target_type,
      p.id as target_id, p.expiry_date as date, c.bound, null::int as days_short
    from (
      -- The types required of this role: its own item and "*", matched trimmed and case-insensitively.
      select distinct t.target_type, t.type
      from requirements q
      cross join lateral (
        select 'identity_document' as target_type, unnest(q.document_types) as type
        union all
        select 'certificate', unnest(q.certificate_types)
      ) t
      where q.organization_id = a.organization_id and lower(q.role) in (${roleKey(sql`a.role`)}, '*')
    ) rq
    left join lateral (
      -- The document judged: the latest expiry among those not rejected (none = latest), verified first,
      -- then the newest; when all are rejected, the most recently created.
      select x.id, x.expiry_date, x.status, x.rejected
      from (
        select r.id, r.expiry_date, r.created_at, coalesce(v.status, 'pending') as status, coalesce(v.status = 'rejected', false) as rejected
        from (
          select d.id, d.expiry_date, d.created_at from identity_documents d
          where rq.target_type = 'identity_document' and d.organization_id = a.organization_id
            and d.user_id = a.user_id and d.document_type = rq.type
          union all
          select d.id, d.expiry_date, d.created_at from certificates d
          where rq.target_type = 'certificate' and d.organization_id = a.organization_id
            and d.user_id = a.user_id and d.certificate_type = rq.type
        ) r
        left join verifications v on v.target_type = rq.target_type and v.target_id = r.id
      ) x
      order by x.rejected,
        case when not x.rejected then x.expiry_date end desc nulls first,
        case when not x.rejected then coalesce(x.status = 'verified', false) end desc,
        x.created_at desc, x.id desc
      limit 1
    ) p on true
    cross join lateral (
      select ${through} + ${validityMarginDays(settings, sql`rq.type`)} as margin_bound,
        ${through} + ${expiryWindowDays(settings, sql`rq.type`, ctx.defaultWindowDays)} as window_bound
    ) b
    cross join lateral (
      select case
          when p.id is null then 'document_missing'
          when p.rejected then 'document_rejected'
          when p.expiry_date < ${asOf} then 'document_expired'
          when p.expiry_date < b.margin_bound then 'document_expires_during_assignment'
          when p.expiry_date <= b.window_bound then 'document_expiring_soon'
        end as code,
        case when p.expiry_date >= ${asOf} and p.expiry_date < b.margin_bound then b.margin_bound else b.window_bound end as bound
    ) d
    -- The dates' issue, and whatever the dates gave, a document still waiting for review. Two arrays
    -- unnested rather than a VALUES list: VALUES evaluated the rules once per row it listed (4 µs a
    -- requirement, a third of a fleet page).
    cross join lateral unnest(
      array[d.code, case when not p.rejected and p.status = 'pending' then 'document_unverified' end],
      array[d.bound, null::date]
    ) c(code, bound)
    where c.code is not null
    union all
    -- DECISIONS §14: the larger of the role's and "*"'s minSeaServiceDays, against the verified days in the
    -- role as of the start date; counted only where a requirement asks for days.
    select 'sea_service_insufficient', 'sea_service', 'requirement', null, n.counted_to, null::date, n.need - s.have
    from (
      select max(q.min_sea_service_days) as need, coalesce(a.start_date, ${asOf}) as counted_to
      from requirements q
      where q.organization_id = a.organization_id and lower(q.role) in (${roleKey(sql`a.role`)}, '*')
      having max(q.min_sea_service_days) > 0
    ) n
    cross join lateral (
      select coalesce(sum(${daysIn(sql`p.counted`)}), 0)::int as have
      from (${countedPeriods({ orgId: sql`a.organization_id`, userId: sql`a.user_id`, asOf: sql`n.counted_to` })}) p
      where p.verified and ${roleKey(sql`p.position`)} = ${roleKey(sql`a.role`)}
    ) s
    where s.have < n.need
    union all
    select case when a.due_date < ${asOf} then 'course_overdue' else 'course_not_passed' end,
      g.course_id::text, 'registration', g.id, a.due_date, null::date, null::int
    from registrations g
    where g.assignment_id = a.id and g.organization_id = a.organization_id and g.status <> 'passed'
    union all
    -- A matrix that names neither this role nor "*": the role has no requirements, never silently ready.
    select 'no_requirements', a.role, 'assignment', a.id, null::date, null::date, null::int
    where exists (select from requirements q where q.organization_id = a.organization_id)
      and not exists (select from requirements q where q.organization_id = a.organization_id and lower(q.role) in (${roleKey(sql`a.role`)}, '*'))
    union all
    -- The person's other assignments whose dates meet [startDate, through]; an open end runs to its own horizon,
    -- no start date from any time.
    select 'overlapping_assignment', null, 'assignment', o.id, o.start_date, o.end_date, null::int
    from assignments o
    where o.organization_id = a.organization_id and o.user_id = a.user_id and o.id <> a.id
      and coalesce(o.start_date, '-infinity'::date) <= ${through}
      and coalesce(o.end_date, ${asOf} + ${openEndedHorizonDays(settings)}) >= coalesce(a.start_date, '-infinity'::date)`
}

/**
 * One row per assignment: how many blockers and warnings it has, and its distinct codes (sorted).
 * `onlyWhen`, a condition on the outer row alone, skips the judging where it is false (a one-time filter).
 */
export function verdictOf(ctx: VerdictContext, onlyWhen?: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    select count(*) filter (where i.code in (${list(BLOCKERS)}))::int as blocker_count,
      count(*) filter (where i.code not in (${list(BLOCKERS)}))::int as warning_count,
      coalesce(array_agg(distinct i.code collate "C" order by i.code collate "C"), '{}') as codes
    from (${issuesOf(ctx)}) i
    ${onlyWhen ? sql`where ${onlyWhen}` : sql``}`
}

/** Issues in the contract's order: by code as the contract lists them, then requirement, then targetId. */
export const issueOrder = (codes: readonly Code[]) =>
  sql`array_position(array[${list(codes)}], i.code), i.requirement collate "C", i.target_id`
