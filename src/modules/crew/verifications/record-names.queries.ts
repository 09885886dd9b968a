import { type SelectQueryBuilder, sql } from 'kysely'
import type { DB } from '../../../db/schema.js'

/** What the names add to a verification row (DECISIONS §3 leaves the wire open; docs/decisions/events.md, events-6). */
export interface RecordNames {
  record_type: string | null
  record_number: string | null
  user_name: string
  reviewer_name: string | null
}

/**
 * Verifications with the record they are of (its type and number; an experience row's company) and the
 * person and reviewer by name, joined in the same statement: the number of statements stays one however
 * many items a list holds. Every join keeps to the verification's organization.
 */
export const withRecordNames = (query: SelectQueryBuilder<DB, 'verifications', object>) =>
  query
    .leftJoin('identity_documents as d', (join) =>
      join
        .onRef('d.id', '=', 'verifications.target_id')
        .onRef('d.organization_id', '=', 'verifications.organization_id')
        .on('verifications.target_type', '=', 'identity_document'),
    )
    .leftJoin('certificates as c', (join) =>
      join
        .onRef('c.id', '=', 'verifications.target_id')
        .onRef('c.organization_id', '=', 'verifications.organization_id')
        .on('verifications.target_type', '=', 'certificate'),
    )
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
      sql<string | null>`coalesce(d.document_type::text, c.certificate_type::text)`.as('record_type'),
      sql<string | null>`coalesce(d.document_number, c.certificate_number, x.company_name)`.as('record_number'),
      sql<string>`owner.first_name || ' ' || owner.last_name`.as('user_name'),
      sql<string | null>`reviewer.first_name || ' ' || reviewer.last_name`.as('reviewer_name'),
    ])

export const namesOf = (row: RecordNames) => ({
  recordType: row.record_type,
  recordNumber: row.record_number,
  userName: row.user_name,
  reviewerName: row.reviewer_name,
})
