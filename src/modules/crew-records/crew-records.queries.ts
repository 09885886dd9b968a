import { type Expression, type Insertable, type QueryCreator, type RawBuilder, type Selectable, sql } from 'kysely'
import type { Db } from '../../db/database.js'
import type { DB, ExpiringRecord } from '../../db/schema.js'
import type { Actor } from '../../lib/access.js'
import { iso, isoSql, todayUtcSql } from '../../lib/dates.js'
import { type EventSource, type EventType, eventsInsert } from '../../lib/events.js'
import { expiryWindowDays, settingsOf, expiryStatus as statusSql } from '../organizations/settings.queries.js'
import {
  embeddedVerification,
  type MoveEvent,
  type ReviewedTable,
  selectWithVerification,
  TARGET_OF,
  type Target,
  type VerificationFields,
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

/** A record's own columns: the table's, less the id and owner the insert sets. */
type RecordColumns<T extends CrewRecordTable> = Omit<Insertable<DB[T]>, 'id' | 'organization_id' | 'user_id'>

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

/** The response fields documents and certificates share beyond their request fields. */
export const toExpiringFields = (row: ExpiringRow) => ({
  id: row.id,
  uploadedByUserId: row.uploaded_by_user_id,
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
    ...Object.entries(map).map(([field, column]): [string, Expression<unknown>] => [field, ref(column)]),
    ...Object.entries(extra),
    ['createdAt', isoSql(ref<Date>('created_at'))],
    ['updatedAt', isoSql(ref<Date>('updated_at'))],
  ]
  return sql<
    Record<string, unknown>
  >`jsonb_build_object(${sql.join(fields.map(([field, value]) => sql`${sql.lit(field)}::text, ${value}`))})`
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

/** The wire shape of a document or certificate: `map`'s fields, its uploader, and its expiry status as of today. */
export const expiringWireSql = (table: ExpiringTable, map: Readonly<Record<string, string>>, orgId: string, days: number) =>
  reviewedWireSql({ ...map, uploadedByUserId: 'uploaded_by_user_id' }, (record) => ({
    status: expiryStatusOfRow(record, table, orgId, days),
  }))

/**
 * Deletes a reviewed record with its verification (its history stays) in one statement, recorded as
 * `<type>.deleted` with its last wire shape, from what the statement deleted; false when there was
 * no such record (for this owner).
 */
export async function deleteReviewed(
  db: Db,
  actor: Actor,
  table: ReviewedTable,
  target: Target,
  ownerId: string | undefined,
  wire: ReviewedWireSql,
): Promise<boolean> {
  const row = await db
    .with('r', (qc) =>
      qc
        .deleteFrom(table)
        .where('organization_id', '=', actor.orgId)
        .where('id', '=', target.id)
        .$if(ownerId !== undefined, (qb) => qb.where('user_id', '=', ownerId!))
        .returningAll(),
    )
    .with('v', (qc) =>
      qc
        .deleteFrom('verifications')
        .using('r')
        .where('verifications.target_type', '=', target.type)
        .whereRef('verifications.target_id', '=', 'r.id')
        .returningAll('verifications'),
    )
    .with('audit', (qc) =>
      eventsInsert(
        qc,
        actor,
        `${target.type}.deleted`,
        target.type,
        sql`select r.id as target_id, ${wire('r', 'v')} as data from r left join v on true`,
        1,
      ),
    )
    .selectFrom('r')
    .select('r.id')
    .executeTakeFirst()
  return row !== undefined
}

/** A reviewed record to create, with its verification, its history's first entry and its `<type>.created` event. */
export interface NewReviewed<T extends ReviewedTable> {
  id: string
  userId: string
  columns: RecordColumns<T>
  /** The upload the record references: it must be of the organization, arrived, and (for crew) the owner's. */
  upload?: { id: string; ownerId?: string }
  review: { fields: VerificationFields; event: MoveEvent }
  /** Who creates it: the event is written by the same statement. */
  source: EventSource | Actor
}

/** What `insertReviewed` found: no such user, an upload that may not be referenced, or the created row. */
export type InsertOutcome<R> = { found: 'user' } | { found: 'upload' } | { found: 'created'; row: R }

/**
 * Creates a record with its verification and the verification's first event in ONE statement: the
 * user's existence and the upload reference are conditions of the insert (so no transaction is needed
 * and no separate check races the write), and the response row comes back from RETURNING. `created`
 * is the event: its type and its rows over `doc` (the inserted record); `expiryDays` adds the expiry
 * status of a document or certificate to the row.
 */
export async function insertReviewed<T extends ReviewedTable>(
  db: Db,
  table: T,
  orgId: string,
  record: NewReviewed<T>,
  created: { type: EventType; rows: RawBuilder<{ target_id: string; data: unknown }> },
  expiryDays?: number,
) {
  const { fields, event } = record.review
  const targetType = TARGET_OF[table]
  const columns = { ...record.columns, id: record.id, organization_id: orgId, user_id: record.userId } as Insertable<DB['experiences']>
  const names = Object.keys(columns) as (keyof typeof columns)[]
  const upload = record.upload
  const row = await db
    .with('owner', (qc) => qc.selectFrom('users').select('id').where('organization_id', '=', orgId).where('id', '=', record.userId))
    .with('doc', (qc) =>
      qc
        .insertInto(table as 'experiences')
        .columns(names)
        .expression((eb) =>
          eb
            .selectFrom('owner')
            .select(names.map((name) => eb.val(columns[name]).as(name)))
            .$if(upload !== undefined, (qb) =>
              qb.where(({ exists, selectFrom }) =>
                exists(
                  selectFrom('uploads')
                    .select('uploads.id')
                    .where('uploads.organization_id', '=', orgId)
                    .where('uploads.id', '=', upload!.id)
                    .where('uploads.status', 'in', ['ready', 'uploaded'])
                    .$if(upload?.ownerId !== undefined, (q) => q.where('uploads.user_id', '=', upload!.ownerId!)),
                ),
              ),
            ),
        )
        .returningAll(),
    )
    .with('ver', (qc) =>
      qc
        .insertInto('verifications')
        .columns(['target_type', 'target_id', 'organization_id', 'user_id', ...(Object.keys(fields) as (keyof VerificationFields)[])])
        .expression((eb) =>
          eb
            .selectFrom('doc')
            .select([
              eb.val(targetType).as('target_type'),
              'doc.id as target_id',
              'doc.organization_id',
              'doc.user_id',
              ...Object.entries(fields).map(([name, value]) => eb.val(value).as(name)),
            ]),
        )
        .returning(['target_type', 'target_id', 'status', 'rejection_reason', 'reviewed_at']),
    )
    .with('event', (qc) =>
      qc
        .insertInto('verification_events')
        .columns(['organization_id', 'target_type', 'target_id', 'from_status', 'to_status', 'action', 'actor_user_id', 'reason'])
        .expression((eb) =>
          eb
            .selectFrom('ver')
            .select([
              eb.val(orgId).as('organization_id'),
              'ver.target_type',
              'ver.target_id',
              eb.val(null).as('from_status'),
              'ver.status as to_status',
              eb.val(event.action).as('action'),
              eb.val(event.actorUserId).as('actor_user_id'),
              eb.val(event.reason).as('reason'),
            ]),
        ),
    )
    .with('audit', (qc) => eventsInsert(qc, record.source, created.type, targetType, created.rows, 1))
    .selectFrom('owner')
    .leftJoin('doc', (join) => join.onTrue())
    .leftJoin('ver', (join) => join.onTrue())
    .selectAll('doc')
    .select(['ver.target_type', 'ver.target_id', 'ver.status', 'ver.rejection_reason', 'ver.reviewed_at'])
    .$if(expiryDays !== undefined, (qb) =>
      qb.select(expiryStatusOfRow('doc', table as ExpiringTable, orgId, expiryDays!).as('expiry_status')),
    )
    .executeTakeFirst()
  const outcome: InsertOutcome<Selectable<DB[T]> & VerificationJoin> = !row
    ? { found: 'user' }
    : row.id === null
      ? { found: 'upload' }
      : { found: 'created', row: row as unknown as Selectable<DB[T]> & VerificationJoin }
  return outcome
}
