import { type ExpressionBuilder, type Selectable, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB, VerificationsTable } from '../../../db/schema.js'
import { isoOrNull } from '../../../lib/dates.js'
import { afterCursor, decodeCursor, toPage } from '../../../lib/pagination.js'
import { containsPattern } from '../../../lib/search.js'
import { namesOf, type RecordNames, withRecordNames } from './record-names.queries.js'
import { toVerification } from '../reviewed-records/reviewed-records.queries.js'
import type { NamedVerification, ProfileState, ReviewQueueItem, ReviewQueueQuery } from './verifications.schemas.js'

type VerificationRow = Selectable<VerificationsTable>

const toQueueItem = (row: VerificationRow & RecordNames): ReviewQueueItem => ({
  ...toVerification(row),
  userId: row.user_id,
  submittedAt: isoOrNull(row.submitted_at),
  ...namesOf(row),
})

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
