import { type SelectQueryBuilder, sql } from 'kysely'
import type { DB } from '../../../db/schema.js'
import { RECORD_KINDS } from '../record-kinds/record-kinds.js'

/** What the names add to a verification row (DECISIONS §3 leaves the wire open; docs/decisions/events.md, events-6). */
export interface RecordNames {
  record_type: string | null
  record_number: string | null
  user_name: string
  reviewer_name: string | null
}

/** The type and number of the expiring record a verification is of, whatever its kind: one row by primary key, or none. */
const expiringRecord = sql<{ type: string; number: string | null }>`(${sql.join(
  RECORD_KINDS.map(
    (kind) => sql`select ${sql.ref(kind.typeField.column)} as type, ${sql.ref(kind.numberColumn)} as number
      from ${sql.table(kind.table)} where verifications.target_type = ${sql.lit(kind.target)}
      and id = verifications.target_id and organization_id = verifications.organization_id`,
  ),
  sql` union all `,
)})`

/**
 * Verifications with the record they are of (its type and number; an experience row's company) and the
 * person and reviewer by name, joined in the same statement: the number of statements stays one however
 * many items a list holds. Every join keeps to the verification's organization.
 */
export const withRecordNames = (query: SelectQueryBuilder<DB, 'verifications', object>) =>
  query
    .leftJoinLateral(expiringRecord.as('r'), (join) => join.onTrue())
    .leftJoin('experiences as x', (join) =>
      join
        .onRef('x.id', '=', 'verifications.target_id')
        .onRef('x.organization_id', '=', 'verifications.organization_id')
        .on('verifications.target_type', '=', 'experience'),
    )
    .innerJoin('users as owner', (join) =>
      join.onRef('owner.id', '=', 'verifications.user_id').onRef('owner.organization_id', '=', 'verifications.organization_id'),
    )
    .leftJoin('users as reviewer', (join) =>
      join
        .onRef('reviewer.id', '=', 'verifications.reviewer_user_id')
        .onRef('reviewer.organization_id', '=', 'verifications.organization_id'),
    )
    .select([
      'r.type as record_type',
      sql<string | null>`coalesce(r.number, x.company_name)`.as('record_number'),
      sql<string>`owner.first_name || ' ' || owner.last_name`.as('user_name'),
      sql<string | null>`reviewer.first_name || ' ' || reviewer.last_name`.as('reviewer_name'),
    ])

export const namesOf = (row: RecordNames) => ({
  recordType: row.record_type,
  recordNumber: row.record_number,
  userName: row.user_name,
  reviewerName: row.reviewer_name,
})
