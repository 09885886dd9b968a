import type { Insertable, Selectable, Updateable } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../db/database.js'
import type { NextOfKinTable } from '../../db/schema.js'
import { fieldsOf } from '../../lib/columns.js'
import { iso } from '../../lib/dates.js'
import { crewRecordById } from '../crew-records/crew-records.queries.js'
import { NEXT_OF_KIN_COLUMNS, type NextOfKin } from './next-of-kin.schemas.js'

export const toNextOfKin = (row: Selectable<NextOfKinTable>): NextOfKin => ({
  id: row.id,
  ...fieldsOf(NEXT_OF_KIN_COLUMNS, row),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
})

export type NextOfKinColumns = Omit<Insertable<NextOfKinTable>, 'id' | 'organization_id' | 'user_id'>

export function insertNextOfKin(db: Db, orgId: string, userId: string, columns: NextOfKinColumns) {
  return db
    .insertInto('next_of_kin')
    .values({ ...columns, id: uuidv7(), organization_id: orgId, user_id: userId })
    .returningAll()
    .executeTakeFirstOrThrow()
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

/** One contact, locked until the transaction ends; `ownerId` narrows it to that user's (crew). */
export const lockNextOfKin = (trx: Db, orgId: string, id: string, ownerId?: string) =>
  crewRecordById(trx, 'next_of_kin', orgId, id, ownerId).selectAll('next_of_kin').forUpdate().executeTakeFirst()

/** An empty change reads the row as it is. */
export function updateNextOfKin(db: Db, orgId: string, id: string, changes: Updateable<NextOfKinTable>) {
  if (Object.keys(changes).length === 0) return crewRecordById(db, 'next_of_kin', orgId, id).selectAll('next_of_kin').executeTakeFirst()
  return db
    .updateTable('next_of_kin')
    .set({ ...changes, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}
