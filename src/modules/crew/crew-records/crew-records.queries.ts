import { type Expression, type QueryCreator, type RawBuilder, type Selectable, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB, ExpiringRecord } from '../../../db/schema.js'
import { fieldsSql } from '../../../lib/columns.js'
import { iso, isoSql, todayUtcSql } from '../../../lib/dates.js'
import { expiryWindowDays, settingsOf, expiryStatus as statusSql } from '../../accounts/organizations/settings.queries.js'
import {
  embeddedVerification,
  selectWithVerification,
  type VerificationJoin,
  verificationJsonSql,
} from '../verifications/verifications.queries.js'
import type { ExpiryListQuery, ExpiryStatus } from './crew-records.schemas.js'

// Statements every crew record table answers alike: the tables share id, organization_id, user_id and
// the timestamps. Builders leave the selection to the caller (`selectAll(table)`), which keeps its row type.

type CrewRecordTable = 'identity_documents' | 'certificates' | 'experiences' | 'next_of_kin'
export type ExpiringTable = 'identity_documents' | 'certificates'

export async function orgUserExists(db: Db, orgId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('organization_id', '=', orgId).where('id', '=', userId).executeTakeFirst()
  return row !== undefined
}

/** One record of the organization; `ownerId` narrows it to that user's (crew). */
export const crewRecordById = (db: QueryCreator<DB>, table: CrewRecordTable, orgId: string, id: string, ownerId?: string) =>
  db
    .selectFrom(table)
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .$if(ownerId !== undefined, (qb) => qb.where('user_id', '=', ownerId!))

/** The column of a document's or certificate's type: the key of its window in the settings. */
const typeColumnName = (table: ExpiringTable) => (table === 'identity_documents' ? 'document_type' : 'certificate_type')
const typeColumn = (table: ExpiringTable) => sql.ref<string>(`${table}.${typeColumnName(table)}`)

/**
 * The expiry status of DECISIONS §3 against `asOf`, with the window of the record's type in the
 * organization's settings (§10; `days` for types it set none for), computed by the database in the
 * same statement so that the filter and the responses agree and a settings change applies at once.
 */
const expiryStatus = (table: ExpiringTable, orgId: string, days: number, asOf: RawBuilder<string>) =>
  statusSql(sql.ref(`${table}.expiry_date`), asOf, expiryWindowDays(settingsOf(orgId), typeColumn(table), days))

/** The same status, against today, for the row of a CTE (`alias`) that holds a record of `table`. */
export const expiryStatusOfRow = (alias: string, table: ExpiringTable, orgId: string, days: number) =>
  statusSql(
    sql.ref(`${alias}.expiry_date`),
    todayUtcSql,
    expiryWindowDays(settingsOf(orgId), sql.ref<string>(`${alias}.${typeColumnName(table)}`), days),
  )

/** Documents or certificates of the organization with their verification and expiry status. */
const selectExpiring = (db: Db, table: ExpiringTable, orgId: string, days: number, asOf: RawBuilder<string> = todayUtcSql) =>
  selectWithVerification(db, table)
    .select(expiryStatus(table, orgId, days, asOf).as('expiry_status'))
    .where(`${table}.organization_id`, '=', orgId)

/** A user's documents or certificates, newest first, with the list's filters (DECISIONS §3, §10). */
export const expiringOfUser = (db: Db, table: ExpiringTable, orgId: string, days: number, userId: string, query: ExpiryListQuery = {}) => {
  const asOf = query.as_of === undefined ? todayUtcSql : sql<string>`${query.as_of}::date`
  const { expiry_status: status, expires_before: before } = query
  return selectExpiring(db, table, orgId, days, asOf)
    .where(`${table}.user_id`, '=', userId)
    .$if(status !== undefined, (qb) => qb.where(expiryStatus(table, orgId, days, asOf), '=', status!))
    .$if(before !== undefined, (qb) => qb.where(sql<boolean>`${sql.ref(`${table}.expiry_date`)} < ${before}::date`))
    .orderBy(`${table}.created_at`, 'desc')
    .orderBy(`${table}.id`, 'desc')
}

/** One document or certificate, its status as of today; `ownerId` narrows it to that user's (crew). */
export const expiringById = (db: Db, table: ExpiringTable, orgId: string, days: number, id: string, ownerId?: string) =>
  selectExpiring(db, table, orgId, days)
    .where(`${table}.id`, '=', id)
    .$if(ownerId !== undefined, (qb) => qb.where(`${table}.user_id`, '=', ownerId!))

/** A document or certificate row as `expiringOfUser` and `expiringById` read it. */
export type ExpiringRow = Selectable<ExpiringRecord> & VerificationJoin & { expiry_status: ExpiryStatus }

/** The response fields documents and certificates compute from their row (their stored ones are `fieldsOf` its columns). */
export const toExpiringFields = (row: ExpiringRow) => ({
  id: row.id,
  status: row.expiry_status,
  verification: embeddedVerification(row),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
})

/**
 * A record's wire shape as jsonb, over the row `alias` (a table or a CTE of its columns): the id, the
 * columns of `map` under their wire names, `extra` fields, and the times as `iso` writes them.
 */
export function wireJsonSql(alias: string, map: Readonly<Record<string, string>>, extra: Record<string, Expression<unknown>> = {}) {
  const ref = <T = unknown>(column: string) => sql.ref<T>(`${alias}.${column}`)
  const fields: [string, Expression<unknown>][] = [
    ['id', ref('id')],
    ...Object.entries(fieldsSql(map, alias)),
    ...Object.entries(extra),
    ['createdAt', isoSql(ref<Date>('created_at'))],
    ['updatedAt', isoSql(ref<Date>('updated_at'))],
  ]
  const pairs = fields.map(([field, value]) => sql`${sql.lit(field)}::text, ${value}`)
  return sql<Record<string, unknown>>`jsonb_build_object(${sql.join(pairs)})`
}

/** Whether a PATCH's columns change the row `alias`: re-sending a value is no edit (false when it sends none). */
export function changingSql(alias: string, columns: Record<string, unknown>) {
  const tests = Object.entries(columns).map(([column, value]) => sql`${sql.ref(`${alias}.${column}`)} is distinct from ${value}`)
  return tests.length === 0 ? sql<boolean>`false` : sql<boolean>`(${sql.join(tests, sql` or `)})`
}

/** A reviewed record's wire shape as jsonb, over its row (`record`) and its verification's (`verification`, a left join). */
export type ReviewedWireSql = (record: string, verification: string) => RawBuilder<Record<string, unknown>>

/** The verification embedded in a record's wire shape: null when it has none. */
const embeddedVerificationSql = (alias: string) =>
  sql`case when ${sql.ref(`${alias}.status`)} is null then null else ${verificationJsonSql(alias)} end`

/** The wire shape of a reviewed record whose fields are `map`'s columns, with `extra` ones computed over its row. */
export const reviewedWireSql =
  (map: Readonly<Record<string, string>>, extra: (record: string) => Record<string, Expression<unknown>> = () => ({})): ReviewedWireSql =>
  (record, verification) =>
    wireJsonSql(record, map, { ...extra(record), verification: embeddedVerificationSql(verification) })

/** The wire shape of a document or certificate: `map`'s fields and its expiry status as of today. */
export const expiringWireSql = (table: ExpiringTable, map: Readonly<Record<string, string>>, orgId: string, days: number) =>
  reviewedWireSql(map, (record) => ({
    status: expiryStatusOfRow(record, table, orgId, days),
  }))
