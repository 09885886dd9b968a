import { type Expression, type Insertable, type RawBuilder, type Selectable, sql } from 'kysely'
import { compiledPerShape } from '../../../db/compiled.js'
import type { Db } from '../../../db/database.js'
import type { DB, ExpiringRecord, VerificationStatus, VerificationsTable, VerificationTarget } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { fieldsSql } from '../../../lib/columns.js'
import { iso, isoOrNull, isoSql, todayUtcSql } from '../../../lib/dates.js'
import { type EventSource, type EventType, eventsInsert } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { expiryWindowDays, settingsOf, expiryStatus as statusSql } from '../../accounts/organizations/settings.queries.js'
import { referenceableUpload } from '../../platform/uploads/uploads.queries.js'
import type { ExpiringTable, ExpiryStatus, RecordKind, Verification } from './reviewed-records.schemas.js'

// A reviewed record's create in one statement, and its wire shape: read off its row in TypeScript, and
// written in SQL for the events of its creates, updates and deletes. The record tables share id,
// organization_id, user_id and the timestamps; a record and its verification always change together.

type VerificationRow = Selectable<VerificationsTable>
export interface Target {
  type: VerificationTarget
  id: string
}

/** The columns a review move sets; submitted_at only on a move to pending. */
export type VerificationFields = Pick<VerificationRow, 'status' | 'rejection_reason' | 'reviewed_at' | 'reviewer_user_id'> & {
  submitted_at?: Date | null
}

export interface MoveEvent {
  action: string
  actorUserId: string
  reason: string | null
}

/** A review move: the states it leaves from, the columns it sets, its history entry and its event. */
export interface Review {
  from: VerificationStatus[]
  fields: VerificationFields
  event: MoveEvent
  eventType: EventType
}

type VerificationColumns = Pick<VerificationRow, 'target_type' | 'target_id' | 'status' | 'rejection_reason' | 'reviewed_at'>

export const toVerification = (row: VerificationColumns): Verification => ({
  targetType: row.target_type,
  targetId: row.target_id,
  status: row.status,
  rejectionReason: row.rejection_reason,
  reviewedAt: isoOrNull(row.reviewed_at),
})

/** The record tables whose rows are reviewed. */
export type ReviewedTable = ExpiringTable | 'experiences'

/** The verification columns a record's read adds (nullable as a left join's). */
export type VerificationJoin = { [K in keyof VerificationColumns]: VerificationColumns[K] | null }

/** The verification embedded in a record's response. */
export function embeddedVerification(row: VerificationJoin): Verification | null {
  const { target_type, target_id, status } = row
  return target_type && target_id && status ? toVerification({ ...row, target_type, target_id, status }) : null
}

/** The verification of the row `alias` as its wire shape in jsonb (an event's data, or embedded in a record's). */
export const verificationJsonSql = (alias: string) => {
  const ref = (column: string) => sql.ref(`${alias}.${column}`)
  return sql<Verification>`jsonb_build_object('targetType', ${ref('target_type')}, 'targetId', ${ref('target_id')},
    'status', ${ref('status')}, 'rejectionReason', ${ref('rejection_reason')}, 'reviewedAt', ${isoSql(sql.ref(`${alias}.reviewed_at`))})`
}

/**
 * The expiry status of DECISIONS §3 against `asOf`, with the window of the record's type in the
 * organization's settings (§10; `days` for types it set none for), computed by the database in the
 * statement that reads the record, so that a filter and the responses agree and a settings change applies at once.
 */
export const expiryStatusSql = (alias: string, kind: Pick<RecordKind, 'typeField'>, orgId: string, days: number, asOf = todayUtcSql) =>
  statusSql(
    sql.ref(`${alias}.expiry_date`),
    asOf,
    expiryWindowDays(settingsOf(orgId), sql.ref<string>(`${alias}.${kind.typeField.column}`), days),
  )

/** A document or certificate row as its reads and its create return it. */
export type ExpiringRow = Selectable<ExpiringRecord> &
  VerificationJoin & { expiry_status: ExpiryStatus } & Readonly<Record<string, unknown>>

/** The map of every wire field stored as a column: the kind's type, its settable fields and those the system sets. */
const storedColumns = (kind: RecordKind) => ({ [kind.typeField.wire]: kind.typeField.column, ...kind.columns, ...kind.systemColumns })

/** A record as the client receives it, from its row (the kind's columns) and its verification's. */
export function toExpiringRecord(kind: RecordKind, row: ExpiringRow) {
  const stored = Object.entries(storedColumns(kind)).map(([field, column]) => [field, row[column]])
  return {
    id: row.id,
    status: row.expiry_status,
    verification: embeddedVerification(row),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    ...Object.fromEntries(stored),
  }
}

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

/** The wire shape of a kind's record in SQL (DECISIONS §11's data): its fields and its expiry status as of today. */
export const expiringWire = (kind: RecordKind, orgId: string, days: number) =>
  reviewedWireSql(storedColumns(kind), (record) => ({ status: expiryStatusSql(record, kind, orgId, days) }))

/** Whether the organization has the user (the 404 of a create whose own statement does not run). */
export async function orgUserExists(db: Db, orgId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('organization_id', '=', orgId).where('id', '=', userId).executeTakeFirst()
  return row !== undefined
}

/** A record's own columns: the table's, less the id and owner the insert sets. */
type RecordColumns<T extends ReviewedTable> = Omit<Insertable<DB[T]>, 'id' | 'organization_id' | 'user_id'>

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

/** What a create found: no such user, an upload that may not be referenced, or the created row. */
export type InsertOutcome<R> = { found: 'user' } | { found: 'upload' } | { found: 'created'; row: R }

type CreatedRow<T extends ReviewedTable> = Selectable<DB[T]> & VerificationJoin & { id: string }
/** A create's row: the record's, or no record (`id` null) when its upload may not be referenced. */
type InsertedRow<R> = R | { id: null }
/** The rows an event insert reads (`eventsInsert`). */
type EventRows = { target_id: string; data: unknown }
type InsertValues<T extends ReviewedTable> = { orgId: string; record: NewReviewed<T>; eventIds: string[] }

const isCreated = <R extends { id: string }>(row: InsertedRow<R>): row is R => row.id !== null

/** What a statement's row tells of its create: no user (no row), an upload refused (no record), or the record. */
function outcomeOf<R extends { id: string }>(row: InsertedRow<R> | undefined): InsertOutcome<R> {
  if (!row) return { found: 'user' }
  return isCreated(row) ? { found: 'created', row } : { found: 'upload' }
}

/**
 * The create of a reviewed record: the record, its verification and the verification's first event
 * in ONE statement, with its `eventType` event, whose data is the created record's wire shape (`wire`,
 * the same SQL its updates and deletes record) read from the rows the statement inserted. The user's
 * existence and the upload reference are conditions of the insert (so no transaction is needed and no
 * separate check races the write), and the response row comes back from RETURNING. Built and compiled
 * once per shape of the record: building it was a tenth of a document create's server CPU (profiled).
 */
export function reviewedInsert<T extends ReviewedTable>(to: Reviewed<T>, wire: (orgId: string) => ReviewedWireSql) {
  const statement = compiledPerShape<InsertValues<T>, InsertedRow<CreatedRow<T>>>((db, p) =>
    insertStatement(db, to, p, wire(p.orgId))
      .selectAll('doc')
      .select(['ver.target_type', 'ver.target_id', 'ver.status', 'ver.rejection_reason', 'ver.reviewed_at'])
      .$castTo<InsertedRow<CreatedRow<T>>>(),
  )
  return async (db: Db, orgId: string, record: NewReviewed<T>) =>
    outcomeOf<CreatedRow<T>>((await statement(db, { orgId, record, eventIds: uuidv7s(1) }))[0])
}

/** One compiled create per kind. */
const expiringInserts = new Map<RecordKind, ReturnType<typeof expiringInsert>>()

/** A created record as JSON text: its event's data, which is its wire shape (`expiringWire`). */
type CreatedWire = { id: string; wire: string }

/**
 * The create answers with the JSON its event holds, as text: the record's wire shape is built once, in
 * the statement, and neither read back column by column nor serialized again.
 */
function expiringInsert(kind: RecordKind) {
  return compiledPerShape<InsertValues<RecordKind['table']> & { days: number }, InsertedRow<CreatedWire>>((db, p) =>
    insertStatement(db, kind, p, expiringWire(kind, p.orgId, p.days))
      .leftJoin('audit', (join) => join.onTrue())
      .select(['doc.id', 'audit.wire'])
      .$castTo<InsertedRow<CreatedWire>>(),
  )
}

/**
 * Creates a record of a kind, its verification and its created event in one statement (`insertStatement`);
 * the created record comes back as its JSON text.
 */
export async function insertExpiringAlone(db: Db, kind: RecordKind, orgId: string, days: number, record: NewReviewed<RecordKind['table']>) {
  let insert = expiringInserts.get(kind)
  if (!insert) {
    insert = expiringInsert(kind)
    expiringInserts.set(kind, insert)
  }
  const outcome = outcomeOf<CreatedWire>((await insert(db, { orgId, record, days, eventIds: uuidv7s(1) }))[0])
  return outcome.found === 'created' ? { found: outcome.found, row: outcome.row.wire } : outcome
}

/** Where a create writes: the record's table, its verification's target type, and its `<type>.created` event. */
interface Reviewed<T extends ReviewedTable> {
  table: T
  target: VerificationTarget
  created: EventType
}

/** The create's statement, up to its select: `owner`, `doc` and `ver` joined; `audit` returns the event's data as `wire`. */
function insertStatement<T extends ReviewedTable>(
  db: Db,
  { table, target: targetType, created: eventType }: Reviewed<T>,
  p: InsertValues<T>,
  wire: ReviewedWireSql,
) {
  const { orgId, record } = p
  const { fields, event } = record.review
  // One insert is written for every reviewed table: Kysely types it as one of them, and the row comes back as `table`'s.
  const columns = { ...record.columns, id: record.id, organization_id: orgId, user_id: record.userId } as Insertable<DB['experiences']>
  const names = Object.keys(columns) as (keyof typeof columns)[]
  const upload = record.upload
  const created = sql<EventRows>`select doc.id as target_id, ${wire('doc', 'ver')} as data from doc join ver on ver.target_id = doc.id`
  return db
    .with('owner', (qc) => qc.selectFrom('users').select('id').where('organization_id', '=', orgId).where('id', '=', record.userId))
    .with('doc', (qc) =>
      qc
        .insertInto(table as 'experiences')
        .columns(names)
        .expression((eb) =>
          eb
            .selectFrom('owner')
            .select(names.map((name) => eb.val(columns[name]).as(name)))
            .$if(upload !== undefined, (qb) => qb.where(({ exists }) => exists(referenceableUpload(db, orgId, upload!)))),
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
    .with('audit', (qc) =>
      eventsInsert(qc, record.source, eventType, targetType, created, p.eventIds).returning(sql<string>`data::text`.as('wire')),
    )
    .selectFrom('owner')
    .leftJoin('doc', (join) => join.onTrue())
    .leftJoin('ver', (join) => join.onTrue())
}
