import { sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { eventsInsert, changesSql } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { referenceableUpload } from '../../platform/uploads/uploads.queries.js'
import { type Review, type ReviewedTable, type ReviewedWireSql, type Target, verificationJsonSql } from './reviewed-records.queries.js'

// The writes of a reviewed record after its create, each ONE statement that changes the record, its
// verification, its history and its events together: a PATCH, a delete, and a review move.

/** Whether a PATCH's columns change the row `alias`: re-sending a value is no edit (false when it sends none). */
export function changingSql(alias: string, columns: Record<string, unknown>) {
  const tests = Object.entries(columns).map(([column, value]) => sql`${sql.ref(`${alias}.${column}`)} is distinct from ${value}`)
  return tests.length === 0 ? sql<boolean>`false` : sql<boolean>`(${sql.join(tests, sql` or `)})`
}

/** A PATCH of a reviewed record: what it sends, the rules it must keep, and how a material change reopens the review. */
export interface ReviewedEdit {
  table: ReviewedTable
  target: Target
  /** Crew: only their own record. */
  ownerId?: string
  /** The columns the PATCH sends (an explicit null clears). */
  columns: Record<string, unknown>
  /** Date columns as [earlier, later]: a write that would leave them out of order is refused. */
  dateOrder: readonly (readonly [string, string])[]
  /** The upload the PATCH sets, which must be referenceable if it is new (crew: their own). */
  upload?: { id: string; ownerId?: string }
  wire: ReviewedWireSql
  /** The move back to review on a material change (any column but notes). */
  reopen: Review
}

/** What the statement found: the record's stored dates, whether the rules held, and the record as it is now. */
export interface EditOutcome {
  dates_ok: boolean
  upload_ok: boolean
  stored: Record<string, string | null>
  record: Record<string, unknown>
}

/** The date a column has after the write: the one sent, else the stored one (`o`). */
const dateAfter = (columns: Record<string, unknown>, column: string) =>
  column in columns ? sql`${columns[column]}::date` : sql.ref(`o.${column}`)

function datesInOrder(edit: ReviewedEdit) {
  const broken = edit.dateOrder.map(
    ([earlier, later]) => sql`coalesce(${dateAfter(edit.columns, later)} < ${dateAfter(edit.columns, earlier)}, false)`,
  )
  return broken.length === 0 ? sql<boolean>`true` : sql<boolean>`not (${sql.join(broken, sql` or `)})`
}

/** A new upload may be referenced: of the organization, arrived, and the owner's when `ownerId` is set. */
function uploadReferenceable(db: Db, orgId: string, upload: ReviewedEdit['upload']) {
  if (!upload) return sql<boolean>`true`
  return sql<boolean>`(o.upload_id is not distinct from ${upload.id}::uuid or exists (${referenceableUpload(db, orgId, upload)}))`
}

const setList = (columns: Record<string, unknown>, now: Date) =>
  sql.join([...Object.entries(columns).map(([column, value]) => sql`${sql.ref(column)} = ${value}`), sql`updated_at = ${now}`])

/**
 * A PATCH of a document, certificate or experience row in ONE statement: the record is locked as it
 * is read (`o`, the event's `before`), the date order and the upload reference are conditions of the
 * UPDATE, a material change reopens a verified or rejected review (locked and re-checked likewise)
 * with its history entry, and `<type>.updated` (only the wire fields that changed; none when nothing
 * did) and `verification.reopened` are appended in that order. Undefined when there is no such record.
 */
export async function updateReviewed(db: Db, actor: Actor, edit: ReviewedEdit): Promise<EditOutcome | undefined> {
  const { table, target, columns, wire } = edit
  const now = new Date()
  const { fields, event } = edit.reopen
  const reopenable = sql`(${sql.join(edit.reopen.from)})`
  const material = Object.fromEntries(Object.entries(columns).filter(([column]) => column !== 'notes'))
  const owner = edit.ownerId === undefined ? sql`` : sql` and user_id = ${edit.ownerId}::uuid`
  const ofTarget = sql`target_type = ${target.type} and target_id = ${target.id}::uuid`
  const updated = eventsInsert<DB>(
    db,
    actor,
    `${target.type}.updated`,
    target.type,
    sql`select w.id as target_id, jsonb_build_object('changes', c.changes) as data
      from w cross join lateral (select ${changesSql(sql.ref('w.before'), sql.ref('w.after'))} as changes) c
      where c.changes <> '{}'::jsonb`,
    uuidv7s(1),
  ).returning('id')
  // Reads `updated`, so that it is appended after the update's own event.
  const reopened = eventsInsert<DB>(
    db,
    actor,
    edit.reopen.eventType,
    target.type,
    sql`select vu.target_id, ${verificationJsonSql('vu')} as data from vu cross join (select count(*) from updated) n`,
    uuidv7s(1),
  )
  const stored = [...new Set(edit.dateOrder.flat())].map((column) => sql`${sql.lit(column)}::text, ${sql.ref(`o.${column}`)}`)
  const result = await sql<EditOutcome>`with
    o as (select * from ${sql.table(table)} where organization_id = ${actor.orgId}::uuid and id = ${target.id}::uuid${owner} for update),
    chk as (select o.id, ${datesInOrder(edit)} as dates_ok, ${uploadReferenceable(db, actor.orgId, edit.upload)} as upload_ok from o),
    r as (update ${sql.table(table)} t set ${setList(columns, now)} from o join chk on chk.id = o.id
      where t.id = o.id and chk.dates_ok and chk.upload_ok and ${changingSql('o', columns)} returning t.*),
    v0 as (select * from verifications where ${ofTarget}),
    vo as (select * from verifications where ${ofTarget} and status in ${reopenable}
      and exists (select from r join o on o.id = r.id where ${changingSql('o', material)}) for update),
    vu as (update verifications v set status = ${fields.status}, submitted_at = ${fields.submitted_at ?? null},
      reviewed_at = ${fields.reviewed_at}, reviewer_user_id = ${fields.reviewer_user_id}, rejection_reason = ${fields.rejection_reason},
      updated_at = ${now} from vo where v.target_type = vo.target_type and v.target_id = vo.target_id and v.status in ${reopenable}
      returning v.*),
    history as (insert into verification_events (organization_id, target_type, target_id, from_status, to_status, action, actor_user_id, reason)
      select vu.organization_id, vu.target_type, vu.target_id, vo.status, vu.status, ${event.action}, ${event.actorUserId}::uuid, ${event.reason}
      from vu join vo on vo.target_id = vu.target_id),
    va as (select * from vu union all select * from v0 where not exists (select from vu)),
    w as (select r.id, ${wire('o', 'v0')} as before, ${wire('r', 'va')} as after
      from r join o on o.id = r.id left join v0 on true left join va on true),
    updated as (${updated}),
    reopened as (${reopened})
    select chk.dates_ok, chk.upload_ok, jsonb_build_object(${sql.join(stored)}) as stored, coalesce(w.after, ${wire('o', 'v0')}) as record
    from o join chk on chk.id = o.id left join v0 on true left join w on true`.execute(db)
  return result.rows[0]
}

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

/**
 * Moves the verification of one item if its state allows (`ownerId`: only that user's items), with
 * its history entry and its event, in one statement. The row is locked as it is read and the UPDATE
 * re-checks the state, so of two concurrent moves from one state only the first applies. Undefined
 * when there is no such item; `moved` absent when its state (`status`) does not allow the move.
 */
export async function applyReview(db: Db, actor: Actor, target: Target, ownerId: string | undefined, review: Review) {
  const { fields, event } = review
  const row = await db
    .with('cur', (qc) =>
      qc
        .selectFrom('verifications')
        .selectAll()
        .where('organization_id', '=', actor.orgId)
        .where('target_type', '=', target.type)
        .where('target_id', '=', target.id)
        .$if(ownerId !== undefined, (qb) => qb.where('user_id', '=', ownerId!))
        .forUpdate(),
    )
    .with('moved', (qc) =>
      qc
        .updateTable('verifications')
        .from('cur')
        .set({ ...fields, updated_at: new Date() })
        .whereRef('verifications.target_type', '=', 'cur.target_type')
        .whereRef('verifications.target_id', '=', 'cur.target_id')
        .where('verifications.status', 'in', review.from)
        .returningAll('verifications'),
    )
    .with('history', (qc) =>
      qc
        .insertInto('verification_events')
        .columns(['organization_id', 'target_type', 'target_id', 'from_status', 'to_status', 'action', 'actor_user_id', 'reason'])
        .expression((eb) =>
          eb
            .selectFrom('moved')
            .innerJoin('cur', (join) => join.onTrue())
            .select([
              'moved.organization_id',
              'moved.target_type',
              'moved.target_id',
              'cur.status as from_status',
              'moved.status as to_status',
              eb.val(event.action).as('action'),
              eb.val(event.actorUserId).as('actor_user_id'),
              eb.val(event.reason).as('reason'),
            ]),
        ),
    )
    .with('audit', (qc) =>
      eventsInsert(
        qc,
        actor,
        review.eventType,
        target.type,
        sql`select target_id, ${verificationJsonSql('moved')} as data from moved`,
        uuidv7s(1),
      ),
    )
    .selectFrom('cur')
    .leftJoin('moved', (join) => join.onTrue())
    .select(['cur.status as current', verificationJsonSql('moved').as('moved'), 'moved.status'])
    .executeTakeFirst()
  return row && { status: row.current, moved: row.status === null ? undefined : row.moved }
}
