import type { Selectable } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { ExpiringRecord } from '../../../db/schema.js'
import { type Actor, assertCanReachUser, rowOwner } from '../../../lib/access.js'
import { fieldsOf } from '../../../lib/columns.js'
import { checkDateOrder } from '../../../lib/dates.js'
import { isUniqueViolation } from '../../../lib/db-errors.js'
import { IssueList, invalid, notFound, ValidationFailed } from '../../../lib/errors.js'
import { referenceableUpload } from '../../platform/uploads/uploads.queries.js'
import type { ReviewedTable, Target } from '../verifications/verifications.queries.js'
import { reopenReview } from '../verifications/verifications.service.js'
import { crewRecordById, type ExpiringTable, orgUserExists, type ReviewedWireSql } from './crew-records.queries.js'
import { EXPIRING_COLUMNS, EXPIRY_DATE_ORDER } from './crew-records.schemas.js'
import { type ReviewedEdit, updateReviewed } from './reviewed-edit.queries.js'
import { deleteReviewed, type InsertOutcome } from './reviewed-writes.queries.js'

// Rules a user's crew records share. A record and its verification always change together, in the
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
export async function refuseTypeChange(db: Db, actor: Actor, table: ExpiringTable, id: string, label: string, write: TypeChange) {
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
export async function removeReviewed(db: Db, actor: Actor, table: ReviewedTable, target: Target, label: string, wire: ReviewedWireSql) {
  if (!(await deleteReviewed(db, actor, table, target, rowOwner(actor), wire))) throw notFound(label)
}
