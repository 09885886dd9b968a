import { type Insertable, type RawBuilder, type Selectable, sql } from 'kysely'
import { compiledPerShape } from '../../../db/compiled.js'
import type { Db } from '../../../db/database.js'
import type { DB } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { type EventSource, type EventType, eventsInsert } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { referenceableUpload } from '../../platform/uploads/uploads.queries.js'
import {
  type MoveEvent,
  type ReviewedTable,
  TARGET_OF,
  type Target,
  type VerificationFields,
  type VerificationJoin,
} from '../verifications/verifications.queries.js'
import { type ExpiringTable, expiryStatusOfRow, type ReviewedWireSql } from './crew-records.queries.js'

// The one-statement create and delete of a reviewed record (identity document, certificate,
// experience): the record, its verification, its history and its event change together.

/** A record's own columns: the table's, less the id and owner the insert sets. */
type RecordColumns<T extends ReviewedTable> = Omit<Insertable<DB[T]>, 'id' | 'organization_id' | 'user_id'>

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
        uuidv7s(1),
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

/** What `reviewedInsert` found: no such user, an upload that may not be referenced, or the created row. */
export type InsertOutcome<R> = { found: 'user' } | { found: 'upload' } | { found: 'created'; row: R }

/** What a create binds. */
export interface ReviewedInsert<T extends ReviewedTable> {
  orgId: string
  record: NewReviewed<T>
  /** The default expiring_soon window: documents and certificates come back with their expiry status. */
  days?: number
}

type CreatedRow<T extends ReviewedTable> = Selectable<DB[T]> & VerificationJoin

/**
 * The create of a reviewed record: the record, its verification and the verification's first event
 * in ONE statement, with its `eventType` event, whose data is the created record's wire shape (`wire`,
 * the same SQL its updates and deletes record) read from the rows the statement inserted. The user's
 * existence and the upload reference are conditions of the insert (so no transaction is needed and no
 * separate check races the write), and the response row comes back from RETURNING. Built and compiled
 * once per shape of the record: building it was a tenth of a document create's server CPU (profiled).
 */
export function reviewedInsert<T extends ReviewedTable>(
  table: T,
  eventType: EventType,
  wire: (p: { orgId: string; days?: number }) => ReviewedWireSql,
) {
  const statement = compiledPerShape((db: Db, p: ReviewedInsert<T> & { eventIds: string[] }) =>
    insertStatement(db, table, p, {
      type: eventType,
      rows: sql`select doc.id as target_id, ${wire(p)('doc', 'ver')} as data from doc join ver on ver.target_id = doc.id`,
    }),
  )
  return async (db: Db, values: ReviewedInsert<T>): Promise<InsertOutcome<CreatedRow<T>>> => {
    const [row] = await statement(db, { ...values, eventIds: uuidv7s(1) })
    if (!row) return { found: 'user' }
    return row.id === null ? { found: 'upload' } : { found: 'created', row: row as unknown as CreatedRow<T> }
  }
}

function insertStatement<T extends ReviewedTable>(
  db: Db,
  table: T,
  p: ReviewedInsert<T> & { eventIds: string[] },
  created: { type: EventType; rows: RawBuilder<{ target_id: string; data: unknown }> },
) {
  const { orgId, record } = p
  const { fields, event } = record.review
  const targetType = TARGET_OF[table]
  const columns = { ...record.columns, id: record.id, organization_id: orgId, user_id: record.userId } as Insertable<DB['experiences']>
  const names = Object.keys(columns) as (keyof typeof columns)[]
  const upload = record.upload
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
    .with('audit', (qc) => eventsInsert(qc, record.source, created.type, targetType, created.rows, p.eventIds))
    .selectFrom('owner')
    .leftJoin('doc', (join) => join.onTrue())
    .leftJoin('ver', (join) => join.onTrue())
    .selectAll('doc')
    .select(['ver.target_type', 'ver.target_id', 'ver.status', 'ver.rejection_reason', 'ver.reviewed_at'])
    .$if(p.days !== undefined, (qb) => qb.select(expiryStatusOfRow('doc', table as ExpiringTable, orgId, p.days!).as('expiry_status')))
}
