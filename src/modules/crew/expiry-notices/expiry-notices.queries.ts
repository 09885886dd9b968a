import { sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB } from '../../../db/schema.js'
import { type FoundSource, typedEventsInsert } from '../../../lib/events.js'
import { DEFAULT_NOTIFICATION_DAYS } from '../../accounts/organizations/settings.js'
import { RECORD_KINDS } from '../record-kinds/record-kinds.js'
import { expiringRecordsSql } from '../reviewed-records/reviewed-reads.queries.js'

/** The system announces, in each document's organization; the statement makes the events' ids. */
const SWEEP: FoundSource = { orgId: sql`e.organization_id`, actor: null, requestId: null }

/**
 * One sweep over every organization (DECISIONS §11). Each document with an expiry date is due for
 * the smallest threshold it has crossed (0 standing for "expired"); the notices table keeps what was
 * announced per (document, expiry date, threshold), so a notice is inserted, and its event appended,
 * exactly once whichever instance sweeps, and thresholds passed while an earlier one was due are
 * never announced late. One statement, notices and events together, however many there are: a first
 * sweep of a fleet announces tens of thousands, which must not pass through the service's memory.
 * Returns how many notices went out.
 */
export async function sweepExpiryNotices(db: Db, today: string): Promise<number> {
  const { numAffectedRows } = await sql`
    with documents as (${expiringRecordsSql(RECORD_KINDS, { dated: true })}), due as (
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
