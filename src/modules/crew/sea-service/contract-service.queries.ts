import { type RawBuilder, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { isoSql } from '../../../lib/dates.js'
import { changesSql, type EventType, eventsInsert, type FoundSource } from '../../../lib/events.js'

/**
 * An experience row in its wire shape (DECISIONS §3), over its row `x` and its verification `v`, for the
 * events below. Written here rather than imported: the experience module reaches, through the users
 * module, the assignments module whose writes call this one (an import loop between folders). A test
 * holds it equal to what GET returns.
 */
function experienceWire(x: string, v: string) {
  const [row, review] = [(c: string) => sql.ref(`${x}.${c}`), (c: string) => sql.ref(`${v}.${c}`)]
  return sql`jsonb_build_object('id', ${row('id')}, 'companyName', ${row('company_name')}, 'position', ${row('position')},
    'shipType', ${row('ship_type')}, 'startDate', ${row('start_date')}, 'endDate', ${row('end_date')}, 'notes', ${row('notes')},
    'source', ${row('source')}, 'assignmentId', ${row('assignment_id')},
    'verification', case when ${review('status')} is null then null else jsonb_build_object('targetType', ${review('target_type')},
      'targetId', ${review('target_id')}, 'status', ${review('status')}, 'rejectionReason', ${review('rejection_reason')},
      'reviewedAt', ${isoSql(review('reviewed_at') as never)}) end,
    'createdAt', ${isoSql(row('created_at') as never)}, 'updatedAt', ${isoSql(row('updated_at') as never)})`
}

/**
 * Which assignments of an organization to bring into step: those a write just changed (its caller the
 * events' actor), or a batch of the sweep (no actor).
 */
export interface ContractScope {
  orgId: string
  assignmentIds: readonly string[]
  actor: Actor | null
}

const scopeOf = (scope: ContractScope, alias: string): RawBuilder<unknown> =>
  sql`${sql.ref(`${alias}.organization_id`)} = ${scope.orgId} and ${sql.ref(`${alias}.${alias === 'a' ? 'id' : 'assignment_id'}`)} = any(${scope.assignmentIds}::uuid[])`

/**
 * Sea service from contracts (DECISIONS §14), one statement whatever the scope: every assignment in it
 * whose endDate has passed (and that has a startDate) has exactly one experience row `source:
 * "assignment"`, verified, in step with its role, dates and ship type (the company name is the
 * organization's when the row is made); a row whose assignment no longer
 * qualifies is removed. The unique index on `assignment_id` makes a replayed or concurrent run insert
 * nothing twice, and rows are locked and compared before an update, so a repeated run changes nothing
 * and writes no event. Events carry the caller as actor (the write that ended the contract), or none
 * for the sweep. Returns how many rows it made, changed or removed.
 */
export async function syncContractService(db: Db, scope: ContractScope, today: string): Promise<number> {
  const actor = scope.actor
  // The statement makes the events' ids.
  const source: FoundSource = {
    orgId: sql`e.organization_id`,
    actor: actor && { userId: sql`${actor.userId}`, role: sql`${actor.role}` },
    requestId: actor?.requestId ?? null,
  }
  const events = (type: EventType, rows: RawBuilder<{ target_id: string; data: unknown }>) =>
    eventsInsert<DB>(db, source, type, 'experience', sql`${rows} order by target_id`)
  const { rows } = await sql<{ n: number }>`
    with wanted as (
      select a.id as assignment_id, a.organization_id, a.user_id, o.name as company_name, a.role as position, s.ship_type::text as ship_type,
        a.start_date, a.end_date
      from assignments a
      join organizations o on o.id = a.organization_id
      join ships s on s.id = a.ship_id
      where ${scopeOf(scope, 'a')} and a.end_date < ${today}::date and a.start_date is not null
    ),
    present as (
      select x.* from experiences x where x.assignment_id is not null and ${scopeOf(scope, 'x')}
      order by x.id for update
    ),
    present_reviews as (
      select v.* from verifications v join present p on v.target_type = 'experience' and v.target_id = p.id
    ),
    made as (
      insert into experiences (id, organization_id, user_id, company_name, position, ship_type, start_date, end_date, source, assignment_id)
      select seaworthy_uuid_v7(), w.organization_id, w.user_id, w.company_name, w.position, w.ship_type, w.start_date, w.end_date,
        'assignment', w.assignment_id
      from wanted w where not exists (select 1 from present p where p.assignment_id = w.assignment_id)
      order by w.assignment_id
      on conflict (assignment_id) where assignment_id is not null do nothing
      returning *
    ),
    made_reviews as (
      insert into verifications (target_type, target_id, organization_id, user_id, status, reviewed_at)
      select 'experience', m.id, m.organization_id, m.user_id, 'verified', now() from made m
      returning *
    ),
    changed as (
      update experiences x set position = w.position, ship_type = w.ship_type, start_date = w.start_date,
        end_date = w.end_date, updated_at = date_trunc('milliseconds', clock_timestamp())
      from wanted w, present p
      where x.id = p.id and p.assignment_id = w.assignment_id
        and (x.position, x.ship_type, x.start_date, x.end_date) is distinct from (w.position, w.ship_type, w.start_date, w.end_date)
      returning x.*
    ),
    -- The company's own record stays verified, whatever was done to its review meanwhile.
    changed_reviews as (
      update verifications v set status = 'verified', reviewed_at = now(), reviewer_user_id = null, rejection_reason = null,
        updated_at = date_trunc('milliseconds', clock_timestamp())
      from changed c where v.target_type = 'experience' and v.target_id = c.id
      returning v.*
    ),
    removed as (
      delete from experiences x using present p
      where x.id = p.id and not exists (select 1 from wanted w where w.assignment_id = p.assignment_id)
      returning x.*
    ),
    removed_reviews as (
      delete from verifications v using removed r where v.target_type = 'experience' and v.target_id = r.id
    ),
    history as (
      insert into verification_events (organization_id, target_type, target_id, from_status, to_status, action, actor_user_id)
      select m.organization_id, 'experience', m.id, null::text, 'verified', 'create', null::uuid from made m
      union all
      select c.organization_id, 'experience', c.id, pr.status, 'verified', 'contract_changed', null::uuid
      from changed c join present_reviews pr on pr.target_id = c.id
    ),
    created_events as (${events('experience.created', sql`select m.organization_id, m.id as target_id, ${experienceWire('m', 'mr')} as data from made m join made_reviews mr on mr.target_id = m.id`)}),
    updated_events as (${events(
      'experience.updated',
      sql`select c.organization_id, c.id as target_id, jsonb_build_object('changes', ${changesSql(sql`b.before`, sql`b.after`)}) as data
        from changed c join changed_reviews cr on cr.target_id = c.id join present p on p.id = c.id join present_reviews pr on pr.target_id = p.id
        cross join lateral (select ${experienceWire('p', 'pr')} as before, ${experienceWire('c', 'cr')} as after) b`,
    )}),
    deleted_events as (${events('experience.deleted', sql`select p.organization_id, p.id as target_id, ${experienceWire('p', 'pr')} as data from removed r join present p on p.id = r.id left join present_reviews pr on pr.target_id = p.id`)})
    select (select count(*) from made)::int + (select count(*) from changed)::int + (select count(*) from removed)::int as n`.execute(db)
  return rows[0].n
}
