import { sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { compiledPerShape } from '../../../db/compiled.js'
import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { outOfOrderSql } from '../../../lib/dates.js'
import { type EventSource, eventsInsert, objectRows, updatedRows } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { type AssignmentColumns, type AssignmentRow, activeOn, oneActivePerShip, rowColumns, userName } from './assignments.queries.js'
import { ASSIGNMENT_COLUMNS, ASSIGNMENT_DATE_ORDER, type AssignmentDates } from './assignments.schemas.js'

// The single-assignment writes, each ONE statement with its event (the reads and the rules they share
// are in assignments.queries.ts).

/** An assignment in its wire shape as SQL over `a`, `u` and `s`, for the events the statements below write. */
export const assignmentWire = (alias: string) => ({
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

interface CreateOutcome {
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
        eventsInsert(
          qc,
          source,
          'assignment.created',
          'assignment',
          objectRows(assignmentWire('a'), sql`a cross join u cross join s`),
          uuidv7s(1),
        ),
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

/** The wire fields an update can change, over `o` (before) or `a` (after), for `assignment.updated`'s changes. */
const changeableWire = (alias: string) => ({
  role: sql.ref(`${alias}.role`),
  startDate: sql.ref(`${alias}.start_date`),
  dueDate: sql.ref(`${alias}.due_date`),
  endDate: sql.ref(`${alias}.end_date`),
  isActive: activeOn(alias),
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

interface UpdateOutcome {
  /** Undefined when the stored dates the request keeps break a date rule with the ones it sends. */
  row?: AssignmentRow
  stored: Required<AssignmentDates>
}

interface UpdateValues {
  source: EventSource | Actor
  id: string
  changes: AssignmentColumns
  /** Only the dates: every field here shapes the statement. */
  sent: AssignmentDates
  now: Date
  eventIds: string[]
}

// Built and compiled once per set of columns and dates sent: a PATCH is a cheap write, and building
// this statement was a tenth of its server CPU (profiled).
const updateStatement = compiledPerShape((db: Db, p: UpdateValues) => {
  const inOrder = datesInOrder(p.sent)
  return db
    .with('o', (qc) =>
      qc
        .selectFrom('assignments')
        .select(['id', 'role', 'start_date', 'due_date', 'end_date'])
        .where('organization_id', '=', p.source.orgId)
        .where('id', '=', p.id)
        .forUpdate(),
    )
    .with('a', (qc) =>
      qc
        .updateTable('assignments')
        .set({ ...p.changes, updated_at: p.now })
        .where('id', 'in', qc.selectFrom('o').select('o.id'))
        .$if(inOrder !== undefined, (qb) => qb.where(inOrder!))
        .returningAll(),
    )
    .with('audit', (qc) => eventsInsert(qc, p.source, 'assignment.updated', 'assignment', updatedRows(changeableWire), p.eventIds))
    .selectFrom('o')
    .leftJoin('a', 'a.id', 'o.id')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('ships as s', 's.id', 'a.ship_id')
    .select([...rowColumns, 'o.start_date as stored_start', 'o.due_date as stored_due', 'o.end_date as stored_end'])
})

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
  const dates = { startDate: sent.startDate, dueDate: sent.dueDate, endDate: sent.endDate }
  const [row] = await oneActivePerShip(
    updateStatement(db, { source, id: assignmentId, changes, sent: dates, now: new Date(), eventIds: uuidv7s(1) }),
  )
  if (!row) return undefined
  const stored = { startDate: row.stored_start, dueDate: row.stored_due, endDate: row.stored_end }
  return { row: row.id === null ? undefined : (row as AssignmentRow), stored }
}
