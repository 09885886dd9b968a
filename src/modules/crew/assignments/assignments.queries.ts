import { type RawBuilder, sql } from 'kysely'
import { compiledOnce } from '../../../db/compiled.js'
import type { Db } from '../../../db/database.js'
import { todayUtcSql } from '../../../lib/dates.js'
import { conflictOnDuplicate } from '../../../lib/db-errors.js'
import { newestFirstPage } from '../../../lib/pagination.js'
import { containsPattern } from '../../../lib/search.js'
import { type Assignment, type AssignmentListQuery, splitIds } from './assignments.schemas.js'

/** An assignment with its user's and ship's names, as every read of this module selects it. */
export interface AssignmentRow {
  id: string
  user_id: string
  user_name: string
  user_email: string
  ship_id: string
  ship_name: string
  ship_imo_number: string
  role: string
  start_date: string | null
  due_date: string | null
  end_date: string | null
  is_active: boolean
}

export const toAssignment = (row: AssignmentRow): Assignment => ({
  id: row.id,
  userId: row.user_id,
  userName: row.user_name,
  userEmail: row.user_email,
  shipId: row.ship_id,
  shipName: row.ship_name,
  shipImoNumber: row.ship_imo_number,
  role: row.role,
  startDate: row.start_date,
  dueDate: row.due_date,
  endDate: row.end_date,
  isActive: row.is_active,
})

/** `= any(...)` over an id array: one parameter however many ids. */
export const anyOf = (ids: string[]) => sql<string>`any(${ids}::uuid[])`

/**
 * A lone id is compared with `=`: the index on (organization_id, ship_id, created_at, id) then
 * gives the rows newest first, where with `= any(...)` the planner walks the whole organization.
 */
const oneOrAnyOf = (ids: string[]) => (ids.length === 1 ? ids[0] : anyOf(ids))

/**
 * DECISIONS §4: an assignment is active until its sign-off date has passed (endDate null or today, UTC,
 * or later). Computed by the database, so lists, filters, the roster and the writes agree.
 */
export const activeWith = (endDate: RawBuilder<string | null>) => sql<boolean>`(${endDate} is null or ${endDate} >= ${todayUtcSql})`

/** Whether the assignment under `alias` is active. */
export const activeOn = (alias: string) => activeWith(sql.ref(`${alias}.end_date`))

/**
 * A write that would give a user a second active assignment on a ship fails in the database
 * (migration 2026_11_23_0101); this turns that failure into the 409 it means.
 */
export const oneActivePerShip = <T>(write: Promise<T>) =>
  conflictOnDuplicate(write, 'This user already has an active assignment on this ship', 'assignments_one_active_per_user_ship')

// Over `a` (assignments, or a CTE with their columns) and `u` (users).
const isActive = activeOn('a')
export const userName = sql<string>`u.first_name || ' ' || u.last_name`

/** The columns of AssignmentRow over `a`, `u` and `s` (ships). */
export const rowColumns = [
  'a.id',
  'a.user_id',
  userName.as('user_name'),
  'u.email as user_email',
  'a.ship_id',
  's.name as ship_name',
  's.imo_number as ship_imo_number',
  'a.role',
  'a.start_date',
  'a.due_date',
  'a.end_date',
  isActive.as('is_active'),
] as const

const joined = (db: Db, orgId: string) =>
  db
    .selectFrom('assignments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .innerJoin('ships as s', 's.id', 'a.ship_id')
    .where('a.organization_id', '=', orgId)

const byId = compiledOnce((db: Db, p: { orgId: string; id: string }) => joined(db, p.orgId).where('a.id', '=', p.id).select(rowColumns))
const byIdOfUser = compiledOnce((db: Db, p: { orgId: string; id: string; userId: string }) =>
  joined(db, p.orgId).where('a.id', '=', p.id).where('a.user_id', '=', p.userId).select(rowColumns),
)

/** One assignment of the organization; with `onlyUserId`, only if it is that user's. */
export async function findAssignment(db: Db, orgId: string, id: string, onlyUserId?: string): Promise<AssignmentRow | undefined> {
  const rows = onlyUserId ? await byIdOfUser(db, { orgId, id, userId: onlyUserId }) : await byId(db, { orgId, id })
  return rows[0]
}

export function listAssignments(db: Db, orgId: string, query: AssignmentListQuery, onlyUserId?: string) {
  let filtered = joined(db, orgId)
  if (onlyUserId) filtered = filtered.where('a.user_id', '=', onlyUserId)
  if (query.user_id) filtered = filtered.where('a.user_id', '=', query.user_id)
  if (query.ship_id) filtered = filtered.where('a.ship_id', '=', oneOrAnyOf(splitIds(query.ship_id)))
  if (query.is_active !== undefined) filtered = filtered.where(query.is_active ? isActive : sql<boolean>`not ${isActive}`)
  if (query.search) {
    const pattern = containsPattern(query.search)
    filtered = filtered.where((eb) =>
      eb.or([eb(userName, 'ilike', pattern), eb('u.email', 'ilike', pattern), eb('s.name', 'ilike', pattern)]),
    )
  }
  return newestFirstPage(
    filtered,
    (qb) => qb.select(rowColumns),
    'a',
    query,
    (row) => toAssignment(row),
  )
}

/** Which of these users belong to the organization. */
export async function usersOfOrg(db: Db, orgId: string, userIds: string[]): Promise<Set<string>> {
  const rows = await db.selectFrom('users').select('id').where('organization_id', '=', orgId).where('id', '=', anyOf(userIds)).execute()
  return new Set(rows.map((r) => r.id))
}

/**
 * The ship, locked until the transaction ends: creations on one ship take turns, so a bulk create's
 * skip check sees every assignment made on the ship before it.
 */
export async function lockShip(db: Db, orgId: string, shipId: string): Promise<boolean> {
  const row = await db
    .selectFrom('ships')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('id', '=', shipId)
    .forUpdate()
    .executeTakeFirst()
  return row !== undefined
}

export interface AssignmentColumns {
  role?: string
  start_date?: string | null
  due_date?: string | null
  end_date?: string | null
}

/** The caller's own assignments, newest first, as GET /users/me lists them. */
export function currentUserAssignments(db: Db, orgId: string, userId: string) {
  return db
    .selectFrom('assignments')
    .innerJoin('ships', 'ships.id', 'assignments.ship_id')
    .select([
      'assignments.id',
      'ships.name as shipName',
      'ships.imo_number as shipImoNumber',
      'assignments.role',
      'assignments.start_date as startDate',
      'assignments.due_date as dueDate',
      'assignments.end_date as endDate',
      activeOn('assignments').as('isActive'),
    ])
    .where('assignments.organization_id', '=', orgId)
    .where('assignments.user_id', '=', userId)
    .orderBy('assignments.created_at', 'desc')
    .execute()
}
