import { sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import { decodeCursor, microsecondText, toPage } from '../../../lib/pagination.js'
import { type AuditQuery, eventWire } from './audit.schemas.js'
import type { EventType } from './event-types.js'
import { eventNamesOf, withEventNames } from './event-names.queries.js'

/** The organization's events, newest first (DECISIONS §11); `types` is the `type` filter already expanded. */
export async function listEvents(db: Db, orgId: string, query: AuditQuery, types: EventType[] | undefined) {
  const cursor = decodeCursor(query.cursor)
  let filtered = db.selectFrom('events').where('events.organization_id', '=', orgId)
  if (types) filtered = filtered.where('events.type', '=', sql<string>`any(${types}::text[])`)
  if (query.target_id) filtered = filtered.where('events.target_id', '=', query.target_id)
  if (query.actor_id) filtered = filtered.where('events.actor_user_id', '=', query.actor_id)
  if (query.from) filtered = filtered.where('events.occurred_at', '>=', new Date(query.from))
  if (query.to) filtered = filtered.where('events.occurred_at', '<', new Date(query.to))
  const page = withEventNames(filtered)
    .selectAll('events')
    .select(microsecondText('events.occurred_at').as('cursor_at'))
    .$if(cursor !== null, (qb) =>
      qb.where(sql<boolean>`(events.occurred_at, events.id) < (${cursor![0]}::timestamptz, ${cursor![1]}::uuid)`),
    )
    .orderBy('events.occurred_at', 'desc')
    .orderBy('events.id', 'desc')
    .limit(query.limit + 1)
  const [rows, count] = await Promise.all([
    page.execute(),
    query.include_count ? filtered.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow() : null,
  ])
  const named = (row: (typeof rows)[number]) => ({ ...eventWire(row), ...eventNamesOf(row) })
  return toPage(rows, query.limit, (row) => [row.cursor_at, row.id], named, count ? count.n : null)
}
