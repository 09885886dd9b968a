import { sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB } from '../../../db/schema.js'
import { type FoundSource, typedEventsInsert } from '../../../lib/events.js'
import { DEFAULT_NOTIFICATION_DAYS } from '../../accounts/organizations/settings.js'
import { RECORD_KINDS } from '../record-kinds/record-kinds.js'
import { expiringRecordsSql } from '../reviewed-records/reviewed-reads.queries.js'
import { NIL_UUID, type PassInput, type Sweep, WRITES_OVERLAP_MS } from '../../platform/jobs/sweeps.js'

/** The system announces, in each document's organization; the statement makes the events' ids. */
const SWEEP: FoundSource = { orgId: sql`e.organization_id`, actor: null, requestId: null }

/**
 * The sweep of one batch of an organization's documents (DECISIONS §11; the passes below pick them). Each
 * document with an expiry date is due for
 * the smallest threshold it has crossed (0 standing for "expired"); the notices table keeps what was
 * announced per (document, expiry date, threshold), so a notice is inserted, and its event appended,
 * exactly once whichever instance sweeps, and thresholds passed while an earlier one was due are
 * never announced late. One statement, notices and events together. Returns how many notices went out.
 */
export async function sweepExpiryNotices(db: Db, orgId: string, ids: readonly string[], today: string): Promise<number> {
  const { numAffectedRows } = await sql`
    with documents as (
      select * from (${expiringRecordsSql(RECORD_KINDS, { dated: true })}) d where d.organization_id = ${orgId} and d.id = any(${ids}::uuid[])
    ), due as (
      select d.*, d.expiry_date - ${today}::date as days_left,
        case when d.expiry_date < ${today}::date then 0 else (
          select min(t::int) from jsonb_array_elements_text(
            coalesce(o.settings->'expiryNotificationDays', ${JSON.stringify(DEFAULT_NOTIFICATION_DAYS)}::jsonb)
          ) t where t::int >= d.expiry_date - ${today}::date
        ) end as threshold
      from documents d join organizations o on o.id = d.organization_id
    ), announced as (
      insert into expiry_notices (target_type, target_id, expiry_date, threshold, organization_id)
      select target_type, id, expiry_date, threshold, organization_id from due where threshold is not null
      on conflict do nothing
      returning target_type, target_id, expiry_date, threshold
    )
    ${typedEventsInsert<DB>(
      db,
      SWEEP,
      sql`e.target_type`,
      sql`select case when due.threshold = 0 then 'document.expired' else 'document.expiring' end as type,
        due.organization_id, due.target_type, due.id as target_id,
        jsonb_build_object('userId', due.user_id, 'type', due.type, 'expiryDate', to_char(due.expiry_date, 'YYYY-MM-DD'),
          'daysLeft', due.days_left)
          || case when due.threshold > 0 then jsonb_build_object('threshold', due.threshold) else '{}'::jsonb end as data
      from announced join due on due.id = announced.target_id and due.target_type = announced.target_type
      order by due.organization_id, due.expiry_date, due.id`,
    )}`.execute(db)
  return Number(numAffectedRows ?? 0)
}

/** The record tables' dated rows of one organization, as (id, expiry_date). */
const datedOf = (orgId: string) =>
  sql.join(
    RECORD_KINDS.map(
      (kind) => sql`select id, expiry_date from ${sql.table(kind.table)} where organization_id = ${orgId} and expiry_date is not null`,
    ),
    sql` union all `,
  )

/**
 * Documents whose expiry date may have crossed a threshold since the last run: from the last run's day
 * to today plus the organization's largest threshold (everything up to there on a first run, or after a
 * settings change), in (expiry date, id) order.
 */
async function crossing(db: Db, { orgId, since, today, after, limit }: PassInput) {
  const settingsChanged =
    since !== null &&
    (await db
      .selectFrom('events')
      .select('id')
      .where('organization_id', '=', orgId)
      .where('type', '=', 'organization.updated')
      .where('occurred_at', '>=', new Date(since.sweptAt.getTime() - WRITES_OVERLAP_MS))
      .executeTakeFirst()) !== undefined
  const from = since && !settingsChanged ? since.sweptDay : '-infinity'
  const [day, id] = after ? after.split('|') : [from, NIL_UUID]
  const { rows } = await sql<{ id: string; expiry_date: string }>`
    select d.id, d.expiry_date from (${datedOf(orgId)}) d
    where d.expiry_date >= ${from}::date and (d.expiry_date, d.id) > (${day}::date, ${id}::uuid)
      and d.expiry_date <= ${today}::date + (
        select coalesce(max(t::int), 0) from organizations o,
          jsonb_array_elements_text(coalesce(o.settings->'expiryNotificationDays', ${JSON.stringify(DEFAULT_NOTIFICATION_DAYS)}::jsonb)) t
        where o.id = ${orgId})
    order by d.expiry_date, d.id limit ${limit}`.execute(db)
  const last = rows.at(-1)
  return { keys: rows.map((r) => r.id), after: rows.length === limit && last ? `${last.expiry_date}|${last.id}` : null }
}

/** Documents created or changed since the last run (a new expiry date starts afresh), in id order. */
async function written(db: Db, { orgId, since, after, limit }: PassInput) {
  if (!since) return { keys: [], after: null }
  const rows = await db
    .selectFrom('events')
    .select('target_id')
    .distinct()
    .where('organization_id', '=', orgId)
    .where(
      'target_type',
      'in',
      RECORD_KINDS.map((kind) => kind.target),
    )
    .where(
      'type',
      'in',
      RECORD_KINDS.flatMap((kind) => [`${kind.target}.created`, `${kind.target}.updated`]),
    )
    .where('occurred_at', '>=', new Date(since.sweptAt.getTime() - WRITES_OVERLAP_MS))
    .where('target_id', '>', after ?? NIL_UUID)
    .orderBy('target_id')
    .limit(limit)
    .execute()
  const keys = rows.flatMap((r) => (r.target_id ? [r.target_id] : []))
  return { keys, after: keys.length === limit ? (keys.at(-1) ?? null) : null }
}

/** The expiry notices' sweep (DECISIONS §11) per organization and batch. */
export const expirySweep: Sweep = {
  job: 'expiry-sweep',
  passes: [crossing, written],
  apply: (db, orgId, keys, today) => sweepExpiryNotices(db, orgId, keys, today),
}
