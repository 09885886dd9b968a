import { type QueryCreator, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB, VerificationTarget } from '../../../db/schema.js'
import { todayUtcSql } from '../../../lib/dates.js'
import { expiryStatusSql, type ReviewedTable, toExpiringRecord } from './reviewed-records.queries.js'
import type { ExpiryListQuery, RecordKind } from './reviewed-records.schemas.js'

// The reads of a user's crew records, and of every kind's records at once. Builders leave the selection
// to the caller (`selectAll(table)`), which keeps its row type.

type CrewRecordTable = ReviewedTable | 'next_of_kin'

/** One record of the organization; `ownerId` narrows it to that user's (crew). */
export const crewRecordById = (db: QueryCreator<DB>, table: CrewRecordTable, orgId: string, id: string, ownerId?: string) =>
  db
    .selectFrom(table)
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .$if(ownerId !== undefined, (qb) => qb.where('user_id', '=', ownerId!))

/** A reviewed record table with each row's verification (of `target` type) alongside; select the row itself with `selectAll(table)`. */
export const selectWithVerification = (db: Db, table: ReviewedTable, target: VerificationTarget) =>
  db
    .selectFrom(table)
    .leftJoin('verifications', (join) =>
      join.onRef('verifications.target_id', '=', `${table}.id`).on('verifications.target_type', '=', target),
    )
    .select([
      'verifications.target_type',
      'verifications.target_id',
      'verifications.status',
      'verifications.rejection_reason',
      'verifications.reviewed_at',
    ])

/** Records of a kind in the organization with their verification and expiry status. */
const selectExpiring = (db: Db, kind: RecordKind, orgId: string, days: number, asOf = todayUtcSql) =>
  selectWithVerification(db, kind.table, kind.target)
    .select(expiryStatusSql(kind.table, kind, orgId, days, asOf).as('expiry_status'))
    .where(`${kind.table}.organization_id`, '=', orgId)

/** A user's records of a kind, newest first, with the list's filters (DECISIONS §3, §10). */
export const expiringOfUser = (db: Db, kind: RecordKind, orgId: string, days: number, userId: string, query: ExpiryListQuery = {}) => {
  const { table } = kind
  const asOf = query.as_of === undefined ? todayUtcSql : sql<string>`${query.as_of}::date`
  const { expiry_status: status, expires_before: before } = query
  return selectExpiring(db, kind, orgId, days, asOf)
    .where(`${table}.user_id`, '=', userId)
    .$if(status !== undefined, (qb) => qb.where(expiryStatusSql(table, kind, orgId, days, asOf), '=', status!))
    .$if(before !== undefined, (qb) => qb.where(sql<boolean>`${sql.ref(`${table}.expiry_date`)} < ${before}::date`))
    .orderBy(`${table}.created_at`, 'desc')
    .orderBy(`${table}.id`, 'desc')
}

export async function listExpiring(db: Db, kind: RecordKind, orgId: string, days: number, userId: string, query?: ExpiryListQuery) {
  const rows = await expiringOfUser(db, kind, orgId, days, userId, query).selectAll(kind.table).execute()
  return rows.map((row) => toExpiringRecord(kind, row))
}

/** One record of a kind, its status as of today; `ownerId` narrows it to that user's (crew). */
export async function findExpiring(db: Db, kind: RecordKind, orgId: string, days: number, id: string, ownerId?: string) {
  const row = await selectExpiring(db, kind, orgId, days)
    .where(`${kind.table}.id`, '=', id)
    .$if(ownerId !== undefined, (qb) => qb.where(`${kind.table}.user_id`, '=', ownerId!))
    .selectAll(kind.table)
    .executeTakeFirst()
  return row && toExpiringRecord(kind, row)
}

/**
 * The records of every kind as one relation `(target_type, id, organization_id, user_id, type, expiry_date)`,
 * for the reads across kinds (the fleet expiry list, the expiry sweep); `dated` keeps only records with an
 * expiry date, inside each branch.
 */
export function expiringRecordsSql(kinds: readonly RecordKind[], { dated = false } = {}) {
  const branches = kinds.map(
    (kind) => sql`select ${sql.lit(kind.target)} as target_type, id, organization_id, user_id, ${sql.ref(kind.typeField.column)} as type,
      expiry_date from ${sql.table(kind.table)}${dated ? sql` where expiry_date is not null` : sql``}`,
  )
  return sql.join(branches, sql` union all `)
}
