import type { Selectable } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../db/database.js'
import type { NextOfKinTable } from '../../db/schema.js'
import { iso } from '../../lib/dates.js'
import type { NextOfKin } from './next-of-kin.schemas.js'

type NextOfKinRow = Selectable<NextOfKinTable>

export const toNextOfKin = (row: NextOfKinRow): NextOfKin => ({
  id: row.id,
  relationship: row.relationship,
  fullName: row.full_name,
  phone: row.phone,
  email: row.email,
  address: row.address,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
})

export interface NextOfKinColumns {
  relationship?: string
  full_name?: string
  phone?: string | null
  email?: string | null
  address?: string | null
}

export function insertNextOfKin(
  db: Db,
  orgId: string,
  userId: string,
  columns: NextOfKinColumns & { relationship: string; full_name: string },
) {
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

function findNextOfKin(db: Db, orgId: string, id: string, ownerId?: string) {
  let query = db.selectFrom('next_of_kin').selectAll().where('organization_id', '=', orgId).where('id', '=', id)
  if (ownerId) query = query.where('user_id', '=', ownerId)
  return query.executeTakeFirst()
}

/** `ownerId` narrows the row to one user's (crew). An empty change reads the row as it is. */
export function updateNextOfKin(db: Db, orgId: string, id: string, changes: NextOfKinColumns, ownerId?: string) {
  if (Object.keys(changes).length === 0) return findNextOfKin(db, orgId, id, ownerId)
  let query = db
    .updateTable('next_of_kin')
    .set({ ...changes, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
  if (ownerId) query = query.where('user_id', '=', ownerId)
  return query.returningAll().executeTakeFirst()
}

export async function deleteNextOfKin(db: Db, orgId: string, id: string, ownerId?: string): Promise<boolean> {
  let query = db.deleteFrom('next_of_kin').where('organization_id', '=', orgId).where('id', '=', id)
  if (ownerId) query = query.where('user_id', '=', ownerId)
  const result = await query.executeTakeFirst()
  return result.numDeletedRows > 0n
}
