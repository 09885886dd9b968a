import { sql } from 'kysely'
import type { Db } from '../../db/database.js'
import { appendEvents, type NewEvent } from '../../lib/events.js'
import { DEFAULT_NOTIFICATION_DAYS } from '../organizations/settings.js'

interface Notice {
  organization_id: string
  target_type: 'identity_document' | 'certificate'
  target_id: string
  user_id: string
  type: string
  expiry_date: string
  days_left: number
  threshold: number
}

const toEvent = (n: Notice): NewEvent => ({
  type: n.threshold === 0 ? 'document.expired' : 'document.expiring',
  target: { type: n.target_type, id: n.target_id },
  data: {
    userId: n.user_id,
    type: n.type,
    expiryDate: n.expiry_date,
    daysLeft: n.days_left,
    ...(n.threshold > 0 && { threshold: n.threshold }),
  },
})

/**
 * One sweep over every organization (DECISIONS §11). Each document with an expiry date is due for
 * the smallest threshold it has crossed (0 standing for "expired"); the notices table keeps what was
 * announced per (document, expiry date, threshold), so a notice is inserted, and its event appended,
 * exactly once whichever instance sweeps, and thresholds passed while an earlier one was due are
 * never announced late. Returns how many notices went out.
 */
export async function sweepExpiryNotices(db: Db, today: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<Notice>`
      with documents as (
        select 'identity_document' as target_type, id, organization_id, user_id, document_type::text as type, expiry_date
        from identity_documents where expiry_date is not null
        union all
        select 'certificate', id, organization_id, user_id, certificate_type::text, expiry_date
        from certificates where expiry_date is not null
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
      select due.organization_id, due.target_type, due.id as target_id, due.user_id, due.type,
        to_char(due.expiry_date, 'YYYY-MM-DD') as expiry_date, due.days_left, due.threshold
      from announced join due on due.id = announced.target_id and due.target_type = announced.target_type
      order by due.organization_id, due.expiry_date, due.id`.execute(trx)
    // appendEvents writes for one organization: one statement per organization with new notices.
    const byOrg = new Map<string, Notice[]>()
    for (const notice of rows) byOrg.set(notice.organization_id, [...(byOrg.get(notice.organization_id) ?? []), notice])
    for (const [orgId, notices] of byOrg) {
      await appendEvents(trx, { orgId, actor: null, requestId: null }, notices.map(toEvent))
    }
    return rows.length
  })
}
