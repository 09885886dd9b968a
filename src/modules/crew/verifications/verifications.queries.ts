import { type ExpressionBuilder, type Selectable, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB, VerificationStatus, VerificationsTable, VerificationTarget } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { isoOrNull, isoSql } from '../../../lib/dates.js'
import { type EventType, eventsInsert } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { afterCursor, decodeCursor, toPage } from '../../../lib/pagination.js'
import { containsPattern } from '../../../lib/search.js'
import { namesOf, type RecordNames, withRecordNames } from './record-names.queries.js'
import type { NamedVerification, ProfileState, ReviewQueueItem, ReviewQueueQuery, Verification } from './verifications.schemas.js'

type VerificationRow = Selectable<VerificationsTable>
export interface Target {
  type: VerificationTarget
  id: string
}

/** The columns a move sets; submitted_at only on a move to pending. */
export type VerificationFields = Pick<VerificationRow, 'status' | 'rejection_reason' | 'reviewed_at' | 'reviewer_user_id'> & {
  submitted_at?: Date | null
}

export interface MoveEvent {
  action: string
  actorUserId: string
  reason: string | null
}

type VerificationColumns = Pick<VerificationRow, 'target_type' | 'target_id' | 'status' | 'rejection_reason' | 'reviewed_at'>

const toVerification = (row: VerificationColumns): Verification => ({
  targetType: row.target_type,
  targetId: row.target_id,
  status: row.status,
  rejectionReason: row.rejection_reason,
  reviewedAt: isoOrNull(row.reviewed_at),
})

const toQueueItem = (row: VerificationRow & RecordNames): ReviewQueueItem => ({
  ...toVerification(row),
  userId: row.user_id,
  submittedAt: isoOrNull(row.submitted_at),
  ...namesOf(row),
})

/** The record tables whose rows are reviewed, with the verification target of each. */
export const TARGET_OF = {
  identity_documents: 'identity_document',
  certificates: 'certificate',
  experiences: 'experience',
} as const satisfies Record<string, VerificationTarget>
export type ReviewedTable = keyof typeof TARGET_OF

/** A reviewed record table with each row's verification alongside; select the row itself with `selectAll(table)`. */
export const selectWithVerification = (db: Db, table: ReviewedTable) =>
  db
    .selectFrom(table)
    .leftJoin('verifications', (join) =>
      join.onRef('verifications.target_id', '=', `${table}.id`).on('verifications.target_type', '=', TARGET_OF[table]),
    )
    .select([
      'verifications.target_type',
      'verifications.target_id',
      'verifications.status',
      'verifications.rejection_reason',
      'verifications.reviewed_at',
    ])

/** The verification columns `selectWithVerification` adds (nullable as a left join's). */
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

/** A review action: the states it leaves from, the columns it sets, its history entry and its event. */
export interface Review {
  from: VerificationStatus[]
  fields: VerificationFields
  event: MoveEvent
  eventType: EventType
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

export async function userVerifications(db: Db, orgId: string, userId: string): Promise<NamedVerification[]> {
  const rows = await withRecordNames(db.selectFrom('verifications'))
    .selectAll('verifications')
    .where('verifications.organization_id', '=', orgId)
    .where('verifications.user_id', '=', userId)
    .orderBy('verifications.created_at')
    .orderBy('verifications.target_id')
    .execute()
  return rows.map((row) => {
    const { userName: _, ...names } = namesOf(row)
    return { ...toVerification(row), ...names }
  })
}

/** Each user's profile state, for all users of the organization at once (DECISIONS §3). */
const profileStates = (db: Db, orgId: string) =>
  db
    .selectFrom('verifications')
    .select([
      'user_id',
      sql<ProfileState>`case
        when bool_or(status = 'rejected') then 'action_needed'
        when bool_or(status = 'pending') then 'in_review'
        when bool_or(target_type = 'identity_document') and bool_and(status = 'verified') then 'approved'
        else 'incomplete'
      end`.as('state'),
    ])
    .where('organization_id', '=', orgId)
    .groupBy('user_id')

/** A user without any item has nothing to review: incomplete. */
export const profileState = sql<ProfileState>`coalesce(vs.state, 'incomplete')`

/** The organization's users joined with their profile state (select `profileState`). */
export const usersWithProfileState = (db: Db, orgId: string) =>
  db.selectFrom('users').leftJoin(profileStates(db, orgId).as('vs'), 'vs.user_id', 'users.id').where('users.organization_id', '=', orgId)

/** Users of the organization whose name or e-mail contains `search`. */
export const userMatches = (eb: ExpressionBuilder<DB, 'users'>, search: string) => {
  const pattern = containsPattern(search)
  return eb.or([eb('users.email', 'ilike', pattern), eb(sql`users.first_name || ' ' || users.last_name`, 'ilike', pattern)])
}

export async function listReviewQueue(db: Db, orgId: string, query: ReviewQueueQuery) {
  // Items in every state but not_submitted have been submitted; never-submitted ones queue by creation.
  const sortColumn = query.status === 'not_submitted' ? 'verifications.created_at' : 'verifications.submitted_at'
  let filtered = db
    .selectFrom('verifications')
    .where('verifications.organization_id', '=', orgId)
    .where('verifications.status', '=', query.status)
  if (query.search) {
    const search = query.search
    filtered = filtered.where('verifications.user_id', 'in', (eb) =>
      eb
        .selectFrom('users')
        .select('users.id')
        .where('users.organization_id', '=', orgId)
        .where((users) => userMatches(users, search)),
    )
  }
  const cursor = decodeCursor(query.cursor)
  let page = withRecordNames(filtered)
    .selectAll('verifications')
    .orderBy(sortColumn)
    .orderBy('verifications.target_id')
    .limit(query.limit + 1)
  if (cursor) page = page.where(afterCursor(sortColumn, 'verifications.target_id', cursor, 'asc'))
  const [rows, count] = await Promise.all([
    page.execute(),
    query.include_count ? filtered.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow() : null,
  ])
  const keyOf = (row: VerificationRow & RecordNames): [string, string] => [
    (row.submitted_at ?? row.created_at).toISOString(),
    row.target_id,
  ]
  return toPage(rows, query.limit, keyOf, toQueueItem, count ? count.n : null)
}

/** The user's profile state; undefined when the organization has no such user. */
export async function findProfileState(db: Db, orgId: string, userId: string): Promise<ProfileState | undefined> {
  const row = await usersWithProfileState(db, orgId).select(profileState.as('state')).where('users.id', '=', userId).executeTakeFirst()
  return row?.state
}
