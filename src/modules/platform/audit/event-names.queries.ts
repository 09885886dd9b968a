import { type SelectQueryBuilder, sql } from 'kysely'
import type { DB } from '../../../db/schema.js'

/** What the names add to an event row. */
export interface EventNames {
  actor_name: string | null
  person_id: string | null
  person_name: string | null
  target_kind: string | null
  target_name: string | null
}

const sameOrg = (alias: string) => sql.raw(`${alias}.organization_id = events.organization_id`)
const target = (alias: string, type: string) =>
  sql<boolean>`events.target_type = ${type} and ${sql.ref(`${alias}.id`)} = events.target_id and ${sameOrg(alias)}`

/** An id the event's own data names (a deleted record's last shape), when it is one. */
const dataId = (field: string) =>
  sql`case when events.data->>${field} ~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' then (events.data->>${field})::uuid end`

/**
 * Events with their actor, the person they concern and their target by name, joined in the same
 * statement (one however many events a page holds). A record deleted since is named from the event's own
 * data (a delete keeps the last shape); every join keeps to the event's organization.
 */
export const withEventNames = (query: SelectQueryBuilder<DB, 'events', object>) =>
  query
    .leftJoin('users as actor', (join) => join.on(sql<boolean>`actor.id = events.actor_user_id and ${sameOrg('actor')}`))
    .leftJoin('identity_documents as d', (join) => join.on(target('d', 'identity_document')))
    .leftJoin('certificates as c', (join) => join.on(target('c', 'certificate')))
    .leftJoin('experiences as x', (join) => join.on(target('x', 'experience')))
    .leftJoin('next_of_kin as k', (join) => join.on(target('k', 'next_of_kin')))
    .leftJoin('assignments as a', (join) => join.on(target('a', 'assignment')))
    .leftJoin('courses as co', (join) => join.on(target('co', 'course')))
    .leftJoin('curriculums as cu', (join) => join.on(target('cu', 'curriculum')))
    .leftJoin('ships as s', (join) =>
      join.on(sql<boolean>`s.id = case when events.target_type = 'ship' then events.target_id else a.ship_id end and ${sameOrg('s')}`),
    )
    .leftJoin('users as p', (join) =>
      join.on(
        sql<boolean>`p.id = case when events.target_type = 'user' then events.target_id
          else coalesce(d.user_id, c.user_id, x.user_id, k.user_id, a.user_id, ${dataId('userId')}) end and ${sameOrg('p')}`,
      ),
    )
    .select([
      sql<string | null>`actor.first_name || ' ' || actor.last_name`.as('actor_name'),
      sql<string | null>`p.id`.as('person_id'),
      sql<string | null>`p.first_name || ' ' || p.last_name`.as('person_name'),
      sql<string | null>`coalesce(d.document_type::text, c.certificate_type::text,
        events.data->>'documentType', events.data->>'certificateType')`.as('target_kind'),
      sql<string | null>`case events.target_type
        when 'user' then p.first_name || ' ' || p.last_name
        when 'assignment' then s.name
        else coalesce(d.document_number, c.certificate_number, x.company_name, k.full_name, s.name, co.title, cu.title,
          events.data->>'documentNumber', events.data->>'certificateNumber', events.data->>'companyName',
          events.data->>'fullName', events.data->>'name', events.data->>'title')
      end`.as('target_name'),
    ])

export const eventNamesOf = (row: EventNames) => ({
  actorName: row.actor_name,
  personId: row.person_id,
  personName: row.person_name,
  targetKind: row.target_kind,
  targetName: row.target_name,
})
