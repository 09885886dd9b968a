import type { Selectable } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { ExpiringRecord, VerificationStatus } from '../../../db/schema.js'
import { type Actor, assertCanReachUser, rowOwner } from '../../../lib/access.js'
import { columnsOf, fieldsOf } from '../../../lib/columns.js'
import { checkDateOrder } from '../../../lib/dates.js'
import { isUniqueViolation } from '../../../lib/db-errors.js'
import { conflict, IssueList, invalid, notFound, ValidationFailed } from '../../../lib/errors.js'
import { uuidv7 } from '../../../lib/ids.js'
import { referenceableUpload } from '../../platform/uploads/uploads.queries.js'
import { insertExpiring } from './expiring-batches.queries.js'
import { applyReview, deleteReviewed, type ReviewedEdit, updateReviewed } from './reviewed-edits.queries.js'
import { crewRecordById } from './reviewed-reads.queries.js'
import {
  expiringWire,
  type InsertOutcome,
  orgUserExists,
  type MoveEvent,
  type Review,
  type ReviewedWireSql,
  type Target,
  type VerificationFields,
} from './reviewed-records.queries.js'
import { EXPIRING_COLUMNS, EXPIRY_DATE_ORDER, type RecordKind, storedUploadId } from './reviewed-records.schemas.js'

// The rules of a user's crew records: who reaches them, a kind's create and edit, and the review
// state machine (DECISIONS §3). A record and its verification always change together, in the
// statement of the write.

/** The user of a collection path: crew reach only themselves, staff any user of their organization. */
export async function reachUser(db: Db, actor: Actor, userId: string): Promise<void> {
  assertCanReachUser(actor, userId)
  if (!(await orgUserExists(db, actor.orgId, userId))) throw notFound('User')
}

/**
 * The records of a user the caller may reach, listed by `list` (scoped to the organization and the
 * user): one statement when there are any, since a row of the user's shows the user is there; only an
 * empty list asks whether the user exists (404) or has none ([]).
 */
export async function listOfUser<T>(db: Db, actor: Actor, userId: string, list: () => Promise<T[]>): Promise<T[]> {
  assertCanReachUser(actor, userId)
  const items = await list()
  if (items.length === 0) await reachUser(db, actor, userId)
  return items
}

/** A referenced upload is of the caller's organization and its content arrived; crew may reference only their own. */
async function checkUploadReference(trx: Db, actor: Actor, uploadId: string | null | undefined, issues: IssueList): Promise<void> {
  if (!uploadId) return
  const upload = await referenceableUpload(trx, actor.orgId, { id: uploadId, ownerId: rowOwner(actor) }).executeTakeFirst()
  if (!upload) addUploadIssue(issues)
}

const addUploadIssue = (issues: IssueList) =>
  issues.add(['body', 'uploadId'], 'Upload not found or not ready to be referenced', 'value_error')

/** The checks of a new record's dates that need no database: true when they pass. */
function expiringDatesInOrder(body: ExpiringWrite['body']): boolean {
  const issues = new IssueList()
  checkDateOrder(issues, EXPIRY_DATE_ORDER, body)
  return issues.issues.length === 0
}

/**
 * A create is one statement when the dates are in order (DECISIONS §3 checks the user, then every
 * problem of the body in one 422): a body with dates out of order takes the checks' own statements,
 * so that its 422 still lists an upload problem too, or its 404 names a missing user first.
 */
export async function checkOutOfOrderCreate(db: Db, actor: Actor, userId: string, body: ExpiringWrite['body'], uploadId?: string | null) {
  if (expiringDatesInOrder(body)) return
  await reachUser(db, actor, userId)
  await checkExpiringWrite(db, actor, { body, uploadId })
}

/**
 * An upload backs at most one live record (DECISIONS §5 item 6): the database holds the claim
 * (`upload_records`, kept by triggers), so of two concurrent writes naming one upload only one wins.
 */
async function oneRecordPerUpload<T>(write: Promise<T>): Promise<T> {
  try {
    return await write
  } catch (error) {
    if (isUniqueViolation(error, 'upload_records_pkey')) throw invalid(['body', 'uploadId'], 'Upload already backs another record')
    throw error
  }
}

/** The created record, or the 404 (no such user) or 422 (upload) its statement found. */
export async function createdOrThrow<R>(write: Promise<InsertOutcome<R>>): Promise<R> {
  const outcome = await oneRecordPerUpload(write)
  if (outcome.found === 'created') return outcome.row
  if (outcome.found === 'user') throw notFound('User')
  throw new ValidationFailed(addUploadIssue(new IssueList()).issues)
}

interface ExpiringWrite {
  /** The request body: its dates, and on PATCH whether it names the type field. */
  body: { issueDate?: string | null; expiryDate?: string | null }
  /** The upload the write sets (lower case), if any. */
  uploadId: string | null | undefined
  /** The record before a PATCH, with its type field, which cannot change; absent on create. */
  current?: { row: Selectable<ExpiringRecord>; typeField: string }
}

/**
 * The rules of a document or certificate write (DECISIONS §3), every problem in one 422: the type is
 * set once, the expiry date is not before the issue date, and a newly set upload may be referenced.
 */
async function checkExpiringWrite(db: Db, actor: Actor, { body, uploadId, current }: ExpiringWrite): Promise<void> {
  const issues = new IssueList()
  const frozen = current?.typeField
  if (frozen && frozen in body) issues.add(['body', frozen], `${frozen} cannot be changed`, 'frozen_field')
  checkDateOrder(issues, EXPIRY_DATE_ORDER, body, current && fieldsOf(EXPIRING_COLUMNS, current.row))
  if (uploadId !== current?.row.upload_id) await checkUploadReference(db, actor, uploadId, issues)
  issues.throwIfAny()
}

/**
 * A PATCH naming the type field is refused: 404 for a record out of reach, else one 422 with every
 * problem of the body. It only reads (nothing is written), the stored row completing the 422.
 */
export async function refuseTypeChange(db: Db, actor: Actor, table: RecordKind['table'], id: string, label: string, write: TypeChange) {
  const current = await crewRecordById(db, table, actor.orgId, id, rowOwner(actor)).selectAll().executeTakeFirst()
  if (!current) throw notFound(label)
  await checkExpiringWrite(db, actor, { ...write, current: { row: current, typeField: write.typeField } })
}
type TypeChange = Omit<ExpiringWrite, 'current'> & { typeField: string }

/** A date-order rule of a record: its [earlier, later] wire fields and their columns. */
interface DateRule<F extends string> {
  pairs: readonly (readonly [F, F])[]
  columns: Readonly<Record<F, string>>
}
export const EXPIRY_DATES: DateRule<keyof typeof EXPIRING_COLUMNS> = { pairs: EXPIRY_DATE_ORDER, columns: EXPIRING_COLUMNS }

/**
 * A PATCH of a reviewed record in one statement (`updateReviewed`): the record as it leaves it, or
 * the 404 (out of reach) or 422 (dates out of order with the stored ones, an upload that may not be
 * referenced) the statement found.
 */
export async function editReviewed<F extends string>(
  db: Db,
  actor: Actor,
  label: string,
  body: { readonly [K in F]?: string | null },
  dates: DateRule<F>,
  edit: Pick<ReviewedEdit, 'table' | 'target' | 'columns' | 'wire'> & { uploadId?: string | null },
) {
  const ownerId = rowOwner(actor)
  const upload = edit.uploadId ? { id: edit.uploadId, ownerId } : undefined
  const dateOrder = dates.pairs.map(([earlier, later]) => [dates.columns[earlier], dates.columns[later]] as const)
  const outcome = await oneRecordPerUpload(updateReviewed(db, actor, { ...edit, ownerId, upload, dateOrder, reopen: reopenReview(actor) }))
  if (!outcome) throw notFound(label)
  if (outcome.dates_ok && outcome.upload_ok) return outcome.record
  const stored = Object.fromEntries(Object.entries<string>(dates.columns).map(([field, column]) => [field, outcome.stored[column]]))
  const issues = checkDateOrder(new IssueList(), dates.pairs, body, stored as Record<F, string | null>)
  if (!outcome.upload_ok) addUploadIssue(issues)
  throw new ValidationFailed(issues.issues)
}

/** Deletes a reviewed record, its verification and its event in one statement; 404 for one the caller may not see. */
export async function removeReviewed(
  db: Db,
  actor: Actor,
  table: ReviewedEdit['table'],
  target: Target,
  label: string,
  wire: ReviewedWireSql,
) {
  if (!(await deleteReviewed(db, actor, table, target, rowOwner(actor), wire))) throw notFound(label)
}

type ReviewAction = 'submit' | 'verify' | 'reject'

/** The verification state machine of DECISIONS §3: the states each move leaves from, and where it goes. */
const MOVES: Record<ReviewAction | 'edit', { from: VerificationStatus[]; to: VerificationStatus }> = {
  submit: { from: ['not_submitted', 'rejected'], to: 'pending' },
  verify: { from: ['pending'], to: 'verified' },
  reject: { from: ['pending'], to: 'rejected' },
  edit: { from: ['verified', 'rejected'], to: 'pending' },
}

/** The review is recorded on verify/reject and cleared otherwise; a move to pending is a (re)submission. */
function fieldsFor(to: VerificationStatus, actorUserId: string, reason: string | null = null): VerificationFields {
  const now = new Date()
  const reviewed = to === 'verified' || to === 'rejected'
  return {
    status: to,
    ...(to === 'pending' ? { submitted_at: now } : {}),
    reviewed_at: reviewed ? now : null,
    reviewer_user_id: reviewed ? actorUserId : null,
    rejection_reason: to === 'rejected' ? reason : null,
  }
}

/**
 * The verification a new record starts with, and the event that records its creation: documents and
 * certificates await review from the start (`pending`), experience rows once submitted.
 */
export function initialReview(actor: Actor, status: 'pending' | 'not_submitted'): { fields: VerificationFields; event: MoveEvent } {
  return { fields: fieldsFor(status, actor.userId), event: { action: 'create', actorUserId: actor.userId, reason: null } }
}

/** The event type of each move (DECISIONS §11); it targets the item reviewed, its data is the verification after the move. */
const EVENT_TYPES = {
  submit: 'verification.submitted',
  verify: 'verification.verified',
  reject: 'verification.rejected',
  edit: 'verification.reopened',
} as const

/** submit, verify or reject one item (`label` names it in a 404); any move the state machine does not allow is a 409. */
async function review(db: Db, actor: Actor, target: Target, label: string, action: ReviewAction, reason: string | null = null) {
  const move = MOVES[action]
  const outcome = await applyReview(db, actor, target, rowOwner(actor), {
    from: move.from,
    fields: fieldsFor(move.to, actor.userId, reason),
    event: { action, actorUserId: actor.userId, reason },
    eventType: EVENT_TYPES[action],
  })
  if (!outcome) throw notFound(label)
  if (!outcome.moved) throw conflict(`Cannot ${action} an item whose verification is ${outcome.status}`)
  return outcome.moved
}

export const submit = (db: Db, actor: Actor, target: Target, label: string) => review(db, actor, target, label, 'submit')
export const verify = (db: Db, actor: Actor, target: Target, label: string) => review(db, actor, target, label, 'verify')
export const reject = (db: Db, actor: Actor, target: Target, label: string, reason: string) =>
  review(db, actor, target, label, 'reject', reason)

/** The move a material edit (a change to any column but notes) makes on a verified or rejected item. */
export const reopenReview = (actor: Actor): Review => ({
  from: MOVES.edit.from,
  fields: fieldsFor(MOVES.edit.to, actor.userId),
  event: { action: 'edit', actorUserId: actor.userId, reason: null },
  eventType: EVENT_TYPES.edit,
})

type Body = Record<string, unknown> & { uploadId?: string | null; issueDate?: string | null; expiryDate?: string | null }

/** The columns a request sets, its values as they are stored. */
function toColumns(kind: RecordKind, body: Body): Record<string, unknown> & { upload_id?: string | null } {
  const stored = kind.stored ? kind.stored(body) : body
  return columnsOf(kind.columns, { ...stored, uploadId: storedUploadId(body.uploadId) })
}

const targetOf = (kind: RecordKind, id: string): Target => ({ type: kind.target, id })

/** One statement, but for a body whose dates are out of order (`checkOutOfOrderCreate`). */
export async function createExpiring(db: Db, kind: RecordKind, actor: Actor, userId: string, body: Body, days: number) {
  const columns = { ...toColumns(kind, body), [kind.typeField.column]: body[kind.typeField.wire], uploaded_by_user_id: actor.userId }
  await checkOutOfOrderCreate(db, actor, userId, body, columns.upload_id)
  assertCanReachUser(actor, userId)
  const upload = columns.upload_id ? { id: columns.upload_id, ownerId: rowOwner(actor) } : undefined
  const review = initialReview(actor, 'pending')
  const record = { id: uuidv7(), userId, columns: columns as never, upload, review, source: actor }
  return createdOrThrow(insertExpiring(db, kind, actor.orgId, days, record))
}

/** PATCH: omitted fields stay, null clears; the kind's type cannot change. */
export async function editExpiring(db: Db, kind: RecordKind, actor: Actor, id: string, body: Body, days: number) {
  const columns = toColumns(kind, body)
  const uploadId = columns.upload_id
  if (kind.typeField.wire in body) {
    // Refused whatever else the body holds: read for the 404, or for the stored values the 422 lists with it.
    await refuseTypeChange(db, actor, kind.table, id, kind.label, { body, uploadId, typeField: kind.typeField.wire })
  }
  const edit = { table: kind.table, target: targetOf(kind, id), columns, wire: expiringWire(kind, actor.orgId, days), uploadId }
  return editReviewed(db, actor, kind.label, body, EXPIRY_DATES, edit)
}

/** DELETE of a kind's record. */
export const removeExpiring = (db: Db, kind: RecordKind, actor: Actor, id: string, days: number) =>
  removeReviewed(db, actor, kind.table, targetOf(kind, id), kind.label, expiringWire(kind, actor.orgId, days))

/** submit, verify or reject a kind's record. */
export const reviewExpiring = (db: Db, kind: RecordKind, actor: Actor, id: string, action: ReviewAction, reason?: string) =>
  review(db, actor, targetOf(kind, id), kind.label, action, reason)
