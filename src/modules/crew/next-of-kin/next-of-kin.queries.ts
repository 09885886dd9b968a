import { type Insertable, type Selectable, sql, type Updateable } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../../db/database.js'
import type { NextOfKinTable } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { fieldsOf } from '../../../lib/columns.js'
import { iso } from '../../../lib/dates.js'
import { eventsInsert, changesSql } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { changingSql } from '../reviewed-records/reviewed-edits.queries.js'
import { crewRecordById } from '../reviewed-records/reviewed-reads.queries.js'
import { wireJsonSql } from '../reviewed-records/reviewed-records.queries.js'
import { NEXT_OF_KIN_COLUMNS, type NextOfKin } from './next-of-kin.schemas.js'

// Each write is one statement: the checks are its conditions, its event one of its CTEs, and the
// contact the client receives the row it wrote (DECISIONS §11).

export const toNextOfKin = (row: Selectable<NextOfKinTable>): NextOfKin => ({
  id: row.id,
  ...fieldsOf(NEXT_OF_KIN_COLUMNS, row),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
})

/** The contact of the row `alias` as the client receives it. */
const wire = (alias: string) => wireJsonSql(alias, NEXT_OF_KIN_COLUMNS)

type NextOfKinColumns = Omit<Insertable<NextOfKinTable>, 'id' | 'organization_id' | 'user_id' | 'created_at'>

/** Adds a contact to a user of the organization; undefined when the organization has no such user. */
export async function insertNextOfKin(db: Db, actor: Actor, userId: string, columns: NextOfKinColumns): Promise<NextOfKin | undefined> {
  const values = { ...columns, id: uuidv7(), organization_id: actor.orgId, user_id: userId }
  const names = Object.keys(values) as (keyof typeof values)[]
  const row = await db
    .with('owner', (qc) => qc.selectFrom('users').select('id').where('organization_id', '=', actor.orgId).where('id', '=', userId))
    .with('k', (qc) =>
      qc
        .insertInto('next_of_kin')
        .columns(names)
        .expression((eb) => eb.selectFrom('owner').select(names.map((name) => eb.val(values[name]).as(name))))
        .returningAll(),
    )
    .with('audit', (qc) =>
      eventsInsert(qc, actor, 'next_of_kin.created', 'next_of_kin', sql`select k.id as target_id, ${wire('k')} as data from k`, uuidv7s(1)),
    )
    .selectFrom('k')
    .select(wire('k').as('contact'))
    .executeTakeFirst()
  return row?.contact as NextOfKin | undefined
}

/** A user's contacts in the order they were added. */
export function listNextOfKin(db: Db, orgId: string, userId: string) {
  return db
    .selectFrom('next_of_kin')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}

/**
 * Applies the columns that change and records them as `next_of_kin.updated` (none when nothing
 * changes, nor a new update time); undefined when there is no such contact (for this owner). The row
 * is locked as it is read, so the event's `before` is the version the update replaces.
 */
export async function updateNextOfKin(
  db: Db,
  actor: Actor,
  id: string,
  ownerId: string | undefined,
  columns: Omit<Updateable<NextOfKinTable>, 'id' | 'organization_id' | 'user_id' | 'created_at'>,
) {
  const row = await db
    .with('o', (qc) => crewRecordById(qc, 'next_of_kin', actor.orgId, id, ownerId).selectAll().forUpdate())
    .with('k', (qc) =>
      qc
        .updateTable('next_of_kin')
        .from('o')
        .set({ ...columns, updated_at: new Date() })
        .whereRef('next_of_kin.id', '=', 'o.id')
        .where(changingSql('o', columns))
        .returningAll('next_of_kin'),
    )
    .with('w', (qc) =>
      qc
        .selectFrom('k')
        .innerJoin('o', 'o.id', 'k.id')
        .select(['k.id', wire('o').as('before'), wire('k').as('after')]),
    )
    .with('audit', (qc) =>
      eventsInsert(
        qc,
        actor,
        'next_of_kin.updated',
        'next_of_kin',
        sql`select w.id as target_id, jsonb_build_object('changes', c.changes) as data
          from w cross join lateral (select ${changesSql(sql.ref('w.before'), sql.ref('w.after'))} as changes) c
          where c.changes <> '{}'::jsonb`,
        uuidv7s(1),
      ),
    )
    .selectFrom('o')
    .leftJoin('w', (join) => join.onTrue())
    .select(sql<NextOfKin>`coalesce(w.after, ${wire('o')})`.as('contact'))
    .executeTakeFirst()
  return row?.contact
}

/** Deletes a contact, recorded as `next_of_kin.deleted` with its last wire shape; false when there was none (for this owner). */
export async function deleteNextOfKin(db: Db, actor: Actor, id: string, ownerId: string | undefined): Promise<boolean> {
  const row = await db
    .with('k', (qc) =>
      qc
        .deleteFrom('next_of_kin')
        .where('organization_id', '=', actor.orgId)
        .where('id', '=', id)
        .$if(ownerId !== undefined, (qb) => qb.where('user_id', '=', ownerId!))
        .returningAll(),
    )
    .with('audit', (qc) =>
      eventsInsert(qc, actor, 'next_of_kin.deleted', 'next_of_kin', sql`select k.id as target_id, ${wire('k')} as data from k`, uuidv7s(1)),
    )
    .selectFrom('k')
    .select('id')
    .executeTakeFirst()
  return row !== undefined
}
