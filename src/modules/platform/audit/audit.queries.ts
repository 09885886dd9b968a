import { sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import { decodeCursor, microsecondText, toPage } from '../../../lib/pagination.js'
import { containsPattern } from '../../../lib/search.js'
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
  // The names are joined before the filters on them (person, target name) apply; without those filters the
  // planner drops the subquery's boundary and the joins it does not need.
  let named = db.selectFrom(withEventNames(filtered).selectAll('events').as('e'))
  if (query.person_id) named = named.where('e.person_id', '=', query.person_id)
  if (query.target_name) named = named.where('e.target_name', 'ilike', containsPattern(query.target_name))
  const page = named
    .selectAll('e')
    .select(microsecondText('e.occurred_at').as('cursor_at'))
    .$if(cursor !== null, (qb) => qb.where(sql<boolean>`(e.occurred_at, e.id) < (${cursor![0]}::timestamptz, ${cursor![1]}::uuid)`))
    .orderBy('e.occurred_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(query.limit + 1)
  const nameFiltered = query.person_id !== undefined || query.target_name !== undefined
  const [rows, count] = await Promise.all([
    page.execute(),
    !query.include_count
      ? null
      : nameFiltered
        ? named.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()
        : filtered.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ])
  const wire = (row: (typeof rows)[number]) => ({ ...eventWire(row), ...eventNamesOf(row) })
  return toPage(rows, query.limit, (row) => [row.cursor_at, row.id], wire, count ? count.n : null)
}
