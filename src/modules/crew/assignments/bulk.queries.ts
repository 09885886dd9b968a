import { type RawBuilder, sql } from 'kysely'
import { compiledPerShape } from '../../../db/compiled.js'
import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { outOfOrderSql } from '../../../lib/dates.js'
import { changesSql, type EventSource, eventsInsert, objectRows, wireJson } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { assignmentWire } from './assignment-writes.queries.js'
import { type AssignmentColumns, type AssignmentRow, activeOn, activeWith, rowColumns } from './assignments.queries.js'

// Every function here is ONE statement whatever the number of ids: the ids travel as one array
// parameter, and the steps of an operation are chained data-modifying CTEs.

/** The requested ids with their position, as the CTE `input(id, ord)`. */
export const idsWithOrder = (ids: string[]) => sql<{ id: string; ord: number }>`(select * from unnest(${ids}::uuid[]) with ordinality)`

export const orgColumn = (orgId: string) => sql<string>`${orgId}::uuid`.as('organization_id')

type DateColumn = 'start_date' | 'due_date' | 'end_date'
/** A date after the change: the value set, null when cleared, else the stored one. */
const changed = (changes: AssignmentColumns, column: DateColumn): RawBuilder<string | null> =>
  changes[column] === undefined ? sql.ref(`a.${column}`) : sql`${changes[column]}::date`

export interface BulkUpdateRow extends Partial<AssignmentRow> {
  requested_id: string
  problems: string[]
}

/** `assignment.updated`'s wire fields of each updated row of `checked` (`c`), before and after. */
const bulkWire = (at: 'old' | 'new') => {
  const column = (name: string) => sql.ref<string | null>(at === 'old' ? `c.old_${name}` : `c.${name}`)
  return wireJson({
    role: column('role'),
    startDate: column('start_date'),
    dueDate: column('due_date'),
    endDate: column('end_date'),
    isActive: activeWith(column('end_date')),
  })
}

const SECOND_ACTIVE = 'user already has an active assignment on this ship'

/**
 * Applies the same change to every listed assignment of the organization whose resulting dates
 * keep the rules. One row per requested id, in request order: `problems` is empty for an updated
 * assignment (which comes with its columns), else says why it was left unchanged.
 *
 * The rows are locked first, so the rules are checked on their latest version; a row that
 * already has the resulting values is reported as updated but not rewritten. An ended assignment
 * that the new endDate would make active fails when its user has another active one on that ship,
 * or when an earlier id of the request reactivates one of the same user and ship. Users are looked
 * up row by row (a lateral `limit 1`): as a plain join, the planner reads the whole users table
 * once a few hundred ids are asked for.
 */
export function bulkUpdateAssignments(
  db: Db,
  source: EventSource | Actor,
  ids: string[],
  changes: AssignmentColumns,
): Promise<BulkUpdateRow[]> {
  return bulkUpdateStatement(db, { source, ids, changes, eventIds: uuidv7s(ids.length) }) as Promise<BulkUpdateRow[]>
}

interface BulkUpdate {
  source: EventSource | Actor
  ids: string[]
  changes: AssignmentColumns
  eventIds: string[]
}

// Built and compiled once per set of columns changed: building it was most of a 10-id update's server CPU.
const bulkUpdateStatement = compiledPerShape((db: Db, { source, ids, changes, eventIds }: BulkUpdate) => {
  const { orgId } = source
  const role = changes.role === undefined ? sql.ref<string>('a.role') : sql<string>`${changes.role}::text`
  const [startDate, dueDate, endDate] = [changed(changes, 'start_date'), changed(changes, 'due_date'), changed(changes, 'end_date')]
  const differs = sql<boolean>`(${role}, ${startDate}, ${dueDate}, ${endDate}) is distinct from (a.role, a.start_date, a.due_date, a.end_date)`
  const reactivates = sql<boolean>`(${activeWith(endDate)} and not ${activeOn('a')})`
  return db
    .with('input(id, ord)', () => idsWithOrder(ids))
    .with('target', (qb) =>
      qb
        .selectFrom('assignments as a')
        .innerJoin('input as i', 'i.id', 'a.id')
        .where('a.organization_id', '=', orgId)
        .select([
          'a.id',
          'i.ord',
          'a.user_id',
          'a.ship_id',
          role.as('role'),
          startDate.as('start_date'),
          dueDate.as('due_date'),
          endDate.as('end_date'),
          differs.as('differs'),
          'a.role as old_role',
          'a.start_date as old_start_date',
          'a.due_date as old_due_date',
          'a.end_date as old_end_date',
          reactivates.as('reactivates'),
          sql<string[]>`array_remove(array[
            case when ${outOfOrderSql(startDate, endDate)} then 'startDate after endDate' end,
            case when ${outOfOrderSql(startDate, dueDate)} then 'startDate after dueDate' end], null)`.as('date_problems'),
        ])
        .forNoKeyUpdate('a'),
    )
    .with('checked', (qb) =>
      qb
        .selectFrom('target as t')
        .selectAll()
        .select(
          sql<string[]>`t.date_problems || case when t.reactivates and (
              exists (select 1 from assignments x where x.organization_id = ${orgId} and x.user_id = t.user_id
                and x.ship_id = t.ship_id and ${activeOn('x')})
              or exists (select 1 from target y where y.user_id = t.user_id and y.ship_id = t.ship_id
                and y.ord < t.ord and y.reactivates and cardinality(y.date_problems) = 0)
            ) then array[${SECOND_ACTIVE}::text] else '{}'::text[] end`.as('problems'),
        ),
    )
    .with('updated', (qb) =>
      qb
        .updateTable('assignments as a')
        .from('checked as c')
        .set((eb) => ({
          role: eb.ref('c.role'),
          start_date: eb.ref('c.start_date'),
          due_date: eb.ref('c.due_date'),
          end_date: eb.ref('c.end_date'),
          updated_at: sql`now()`,
        }))
        .whereRef('a.id', '=', 'c.id')
        .where(sql<boolean>`c.differs and cardinality(c.problems) = 0`),
    )
    .with('audit', (qb) =>
      eventsInsert(
        qb,
        source,
        'assignment.updated',
        'assignment',
        sql`select c.id as target_id, jsonb_build_object('changes', x.changes) as data
          from checked c
          cross join lateral (select ${bulkWire('old')} as before, ${bulkWire('new')} as after) w
          cross join lateral (select ${changesSql(sql.ref('w.before'), sql.ref('w.after'))} as changes) x
          where c.differs and cardinality(c.problems) = 0 and x.changes <> '{}'::jsonb`,
        eventIds,
      ),
    )
    .selectFrom('input as i')
    .leftJoin('checked as a', 'a.id', 'i.id')
    .leftJoinLateral(
      (eb) => eb.selectFrom('users').select(['first_name', 'last_name', 'email']).whereRef('users.id', '=', 'a.user_id').limit(1).as('u'),
      (join) => join.onTrue(),
    )
    .leftJoin('ships as s', 's.id', 'a.ship_id')
    .select(['i.id as requested_id', sql<string[]>`coalesce(a.problems, array['not found'])`.as('problems'), ...rowColumns])
    .orderBy('i.ord')
})

export interface NewAssignments {
  ship_id: string
  role: string
  start_date: string | null
  due_date: string | null
  end_date: string | null
}

/**
 * Assigns each user to the ship, skipping users who already have an active assignment on it (an
 * ended one never blocks: DECISIONS §4), unless the new assignments are ended themselves. One row
 * per requested user, in request order; `id` is null for a skipped user.
 */
export function bulkInsertAssignments(db: Db, source: EventSource | Actor, userIds: string[], values: NewAssignments) {
  const { orgId } = source
  const newIds = uuidv7s(userIds.length)
  return db
    .with(
      'input(id, user_id, ord)',
      () =>
        sql<{ id: string; user_id: string; ord: number }>`(select * from unnest(${newIds}::uuid[], ${userIds}::uuid[]) with ordinality)`,
    )
    .with('created', (qb) =>
      qb
        .insertInto('assignments')
        .columns(['id', 'organization_id', 'user_id', 'ship_id', 'role', 'start_date', 'due_date', 'end_date'])
        .expression((eb) =>
          eb
            .selectFrom('input as i')
            .select([
              'i.id',
              orgColumn(orgId),
              'i.user_id',
              sql<string>`${values.ship_id}::uuid`.as('ship_id'),
              sql<string>`${values.role}::text`.as('role'),
              sql<string>`${values.start_date}::date`.as('start_date'),
              sql<string>`${values.due_date}::date`.as('due_date'),
              sql<string>`${values.end_date}::date`.as('end_date'),
            ])
            .where(({ not, exists, selectFrom }) =>
              not(
                exists(
                  selectFrom('assignments as x')
                    .select('x.id')
                    .where('x.organization_id', '=', orgId)
                    .where('x.ship_id', '=', values.ship_id)
                    .whereRef('x.user_id', '=', 'i.user_id')
                    .where(activeOn('x'))
                    .where(activeWith(sql`${values.end_date}::date`)),
                ),
              ),
            ),
        )
        .returningAll(),
    )
    // One `assignment.created` per created assignment, in request order: the assignment as the answer shows it.
    .with('audit', (qc) =>
      eventsInsert(
        qc,
        source,
        'assignment.created',
        'assignment',
        objectRows(
          assignmentWire('a'),
          sql`input i join created a on a.id = i.id join users u on u.id = a.user_id join ships s on s.id = a.ship_id order by i.ord`,
        ),
        uuidv7s(userIds.length),
      ),
    )
    .selectFrom('input as i')
    .leftJoin('created as a', 'a.id', 'i.id')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('ships as s', 's.id', 'a.ship_id')
    .select(['i.user_id as requested_user_id', ...rowColumns])
    .orderBy('i.ord')
    .execute() as Promise<(Partial<AssignmentRow> & { requested_user_id: string })[]>
}
