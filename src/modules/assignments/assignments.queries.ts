import { type RawBuilder, sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { compiledOnce } from '../../db/compiled.js'
import type { Db } from '../../db/database.js'
import type { Actor } from '../../lib/access.js'
import { outOfOrderSql, todayUtcSql } from '../../lib/dates.js'
import { isUniqueViolation } from '../../lib/db-errors.js'
import { conflict } from '../../lib/errors.js'
import { changesSql, type EventSource, eventsInsert, objectRows } from '../../lib/events.js'
import { newestFirstPage } from '../../lib/pagination.js'
import { containsPattern } from '../../lib/search.js'
import {
  ASSIGNMENT_COLUMNS,
  ASSIGNMENT_DATE_ORDER,
  type Assignment,
  type AssignmentDates,
  type AssignmentListQuery,
  splitIds,
} from './assignments.schemas.js'

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
export async function oneActivePerShip<T>(write: Promise<T>): Promise<T> {
  try {
    return await write
  } catch (error) {
    if (isUniqueViolation(error, 'assignments_one_active_per_user_ship')) {
      throw conflict('This user already has an active assignment on this ship')
    }
    throw error
  }
}

// Over `a` (assignments, or a CTE with their columns) and `u` (users).
const isActive = activeOn('a')
const userName = sql<string>`u.first_name || ' ' || u.last_name`

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
    (qb) => qb.select([...rowColumns, 'a.created_at']),
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

/** An assignment in its wire shape as SQL over `a`, `u` and `s`, for the events the statements below write. */
const assignmentWire = (alias: string) => ({
  id: sql.ref(`${alias}.id`),
  userId: sql.ref(`${alias}.user_id`),
  userName: userName,
  userEmail: sql.ref('u.email'),
  shipId: sql.ref(`${alias}.ship_id`),
  shipName: sql.ref('s.name'),
  shipImoNumber: sql.ref('s.imo_number'),
  role: sql.ref(`${alias}.role`),
  startDate: sql.ref(`${alias}.start_date`),
  dueDate: sql.ref(`${alias}.due_date`),
  endDate: sql.ref(`${alias}.end_date`),
  isActive: activeOn(alias),
})

export interface CreateOutcome {
  userFound: boolean
  shipFound: boolean
  /** Undefined when refused: the user or the ship is not the organization's, or `valid` was false. */
  row?: AssignmentRow
}

/**
 * Creates the assignment and its `assignment.created` event in ONE statement: the user and the ship
 * are conditions of the insert and are reported found or not even when `valid` (the request's own
 * checks) is false, so one 422 lists every issue. The ship is locked like the bulk create locks it:
 * creations on one ship take turns.
 */
export async function insertAssignment(
  db: Db,
  source: EventSource | Actor,
  values: AssignmentColumns & { user_id: string; ship_id: string; role: string },
  valid: boolean,
): Promise<CreateOutcome> {
  const { orgId } = source
  const columns = { ...values, id: uuidv7(), organization_id: orgId }
  const names = Object.keys(columns) as (keyof typeof columns)[]
  const row = await oneActivePerShip(
    db
      .with('u', (qc) =>
        qc
          .selectFrom('users')
          .select(['id', 'first_name', 'last_name', 'email'])
          .where('organization_id', '=', orgId)
          .where('id', '=', values.user_id),
      )
      .with('s', (qc) =>
        qc
          .selectFrom('ships')
          .select(['id', 'name', 'imo_number'])
          .where('organization_id', '=', orgId)
          .where('id', '=', values.ship_id)
          .forUpdate(),
      )
      .with('a', (qc) =>
        qc
          .insertInto('assignments')
          .columns(names)
          .expression((eb) =>
            eb
              .selectFrom(['u', 's'])
              .select(names.map((name) => eb.val(columns[name]).as(name)))
              .$if(!valid, (qb) => qb.where(sql<boolean>`false`)),
          )
          .returningAll(),
      )
      .with('audit', (qc) =>
        eventsInsert(qc, source, 'assignment.created', 'assignment', objectRows(assignmentWire('a'), sql`a cross join u cross join s`), 1),
      )
      .selectFrom('u')
      .fullJoin('s', (join) => join.onTrue())
      .leftJoin('a', (join) => join.onTrue())
      .select([...rowColumns, 'u.id as found_user', 's.id as found_ship'])
      .executeTakeFirst(),
  )
  return {
    userFound: row?.found_user != null,
    shipFound: row?.found_ship != null,
    row: row?.id == null ? undefined : (row as AssignmentRow),
  }
}

/** The wire fields an update can change, before (`o`) and after (`a`), for `assignment.updated`'s changes. */
const assignmentChanges = changesSql({
  role: [sql.ref('o.role'), sql.ref('a.role')],
  startDate: [sql.ref('o.start_date'), sql.ref('a.start_date')],
  dueDate: [sql.ref('o.due_date'), sql.ref('a.due_date')],
  endDate: [sql.ref('o.end_date'), sql.ref('a.end_date')],
  isActive: [activeOn('o'), activeOn('a')],
})

/** Each pair's rule (DECISIONS §4) that the dates `sent` touch, on the dates the update leaves: the one sent, else the stored one. */
function datesInOrder(sent: AssignmentDates) {
  const date = (field: keyof AssignmentDates) =>
    sent[field] !== undefined
      ? sql<string | null>`${sent[field]}::date`
      : sql.ref<string | null>(`assignments.${ASSIGNMENT_COLUMNS[field]}`)
  const rules = ASSIGNMENT_DATE_ORDER.filter((pair) => pair.some((field) => sent[field] !== undefined)).map(
    ([earlier, later]) => sql<boolean>`(${outOfOrderSql(date(earlier), date(later))}) is not true`,
  )
  return rules.length === 0 ? undefined : sql<boolean>`${sql.join(rules, sql` and `)}`
}

export interface UpdateOutcome {
  /** Undefined when the stored dates the request keeps break a date rule with the ones it sends. */
  row?: AssignmentRow
  stored: Required<AssignmentDates>
}

/**
 * Updates the assignment, appends its `assignment.updated` event (none when no field changed) and
 * answers it as reads show it, in one statement; undefined when there is none. `o` locks the row, so
 * it is the version the update replaces. The dates `sent` are checked against the stored ones they
 * do not replace in the UPDATE's WHERE (re-checked by PostgreSQL on a concurrent change); when that
 * refuses, `stored` (read by the same statement) tells why.
 */
export async function updateAssignment(
  db: Db,
  source: EventSource | Actor,
  assignmentId: string,
  changes: AssignmentColumns,
  sent: AssignmentDates = {},
): Promise<UpdateOutcome | undefined> {
  const { orgId } = source
  const inOrder = datesInOrder(sent)
  const row = await oneActivePerShip(
    db
      .with('o', (qc) =>
        qc
          .selectFrom('assignments')
          .select(['id', 'role', 'start_date', 'due_date', 'end_date'])
          .where('organization_id', '=', orgId)
          .where('id', '=', assignmentId)
          .forUpdate(),
      )
      .with('a', (qc) =>
        qc
          .updateTable('assignments')
          .set({ ...changes, updated_at: new Date() })
          .where('id', 'in', qc.selectFrom('o').select('o.id'))
          .$if(inOrder !== undefined, (qb) => qb.where(inOrder!))
          .returningAll(),
      )
      .with('audit', (qc) =>
        eventsInsert(
          qc,
          source,
          'assignment.updated',
          'assignment',
          sql`select a.id as target_id, jsonb_build_object('changes', c.changes) as data
            from a join o on o.id = a.id cross join lateral (select ${assignmentChanges} as changes) c
            where c.changes <> '{}'::jsonb`,
          1,
        ),
      )
      .selectFrom('o')
      .leftJoin('a', 'a.id', 'o.id')
      .leftJoin('users as u', 'u.id', 'a.user_id')
      .leftJoin('ships as s', 's.id', 'a.ship_id')
      .select([...rowColumns, 'o.start_date as stored_start', 'o.due_date as stored_due', 'o.end_date as stored_end'])
      .executeTakeFirst(),
  )
  if (!row) return undefined
  const stored = { startDate: row.stored_start, dueDate: row.stored_due, endDate: row.stored_end }
  return { row: row.id === null ? undefined : (row as AssignmentRow), stored }
}
