import type { Selectable } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../db/database.js'
import type { ShipsTable } from '../../db/schema.js'
import { iso } from '../../lib/dates.js'
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js'
import { conflict } from '../../lib/errors.js'
import { newestFirstPage } from '../../lib/pagination.js'
import type { ListQuery } from '../../lib/schemas.js'
import { containsPattern } from '../../lib/search.js'
import type { Ship } from './ships.schemas.js'

type ShipRow = Selectable<ShipsTable>

export const toShip = (row: ShipRow): Ship => ({
  id: row.id,
  name: row.name,
  imoNumber: row.imo_number,
  mmsi: row.mmsi,
  callSign: row.call_sign,
  flag: row.flag,
  portOfRegistry: row.port_of_registry,
  createdAt: iso(row.created_at),
})

export interface ShipColumns {
  name?: string
  imo_number?: string
  mmsi?: string | null
  call_sign?: string | null
  flag?: string | null
  port_of_registry?: string | null
}

const duplicateImo = () => conflict('A ship with this IMO number already exists in your organization')

async function uniqueImo<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateImo()
    throw error
  }
}

export function insertShip(db: Db, orgId: string, ship: ShipColumns & { name: string; imo_number: string }) {
  return uniqueImo(() =>
    db
      .insertInto('ships')
      .values({ id: uuidv7(), organization_id: orgId, ...ship })
      .returningAll()
      .executeTakeFirstOrThrow(),
  )
}

export function findShip(db: Db, orgId: string, shipId: string) {
  return db.selectFrom('ships').selectAll().where('organization_id', '=', orgId).where('id', '=', shipId).executeTakeFirst()
}

export function updateShip(db: Db, orgId: string, shipId: string, changes: ShipColumns) {
  if (Object.keys(changes).length === 0) return findShip(db, orgId, shipId)
  return uniqueImo(() =>
    db
      .updateTable('ships')
      .set({ ...changes, updated_at: new Date() })
      .where('organization_id', '=', orgId)
      .where('id', '=', shipId)
      .returningAll()
      .executeTakeFirst(),
  )
}

/** The deleted ship, or undefined when there is none. */
export async function deleteShip(db: Db, orgId: string, shipId: string): Promise<ShipRow | undefined> {
  try {
    return await db.deleteFrom('ships').where('organization_id', '=', orgId).where('id', '=', shipId).returningAll().executeTakeFirst()
  } catch (error) {
    if (isForeignKeyViolation(error)) throw conflict('The ship has assignments; end or remove them first')
    throw error
  }
}

export function listShips(db: Db, orgId: string, query: ListQuery) {
  let filtered = db.selectFrom('ships').where('organization_id', '=', orgId)
  if (query.search) {
    const pattern = containsPattern(query.search)
    filtered = filtered.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('imo_number', 'ilike', pattern)]))
  }
  return newestFirstPage(filtered, (qb) => qb.selectAll(), 'ships', query, toShip)
}
