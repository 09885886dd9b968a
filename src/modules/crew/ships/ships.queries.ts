import { type Selectable, sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../../db/database.js'
import type { ShipsTable, ShipType } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { fieldsSql } from '../../../lib/columns.js'
import { iso, isoSql } from '../../../lib/dates.js'
import { conflictOnDuplicate, isForeignKeyViolation } from '../../../lib/db-errors.js'
import { conflict } from '../../../lib/errors.js'
import { type EventSource, eventsInsert, objectRows, updatedRows } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { newestFirstPage } from '../../../lib/pagination.js'
import type { ListQuery } from '../../../lib/schemas.js'
import { containsPattern } from '../../../lib/search.js'
import { SHIP_COLUMNS, type Ship } from './ships.schemas.js'

type ShipRow = Selectable<ShipsTable>

export const toShip = (row: ShipRow): Ship => ({
  id: row.id,
  name: row.name,
  imoNumber: row.imo_number,
  mmsi: row.mmsi,
  callSign: row.call_sign,
  flag: row.flag,
  portOfRegistry: row.port_of_registry,
  shipType: row.ship_type,
  grossTonnage: row.gross_tonnage,
  propulsionPowerKw: row.propulsion_power_kw,
  createdAt: iso(row.created_at),
})

export interface ShipColumns {
  name?: string
  imo_number?: string
  mmsi?: string | null
  call_sign?: string | null
  flag?: string | null
  port_of_registry?: string | null
  ship_type?: ShipType | null
  gross_tonnage?: number | null
  propulsion_power_kw?: number | null
}

const uniqueImo = <T>(write: Promise<T>) => conflictOnDuplicate(write, 'A ship with this IMO number already exists in your organization')

/** A ship without an event (the demo organization's fleet). */
export function insertShip(db: Db, orgId: string, ship: ShipColumns & { name: string; imo_number: string }) {
  return uniqueImo(
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

/** A ship in its wire shape as SQL over `alias`, for the events the statements below write. */
const shipWire = (alias: string) => ({
  id: sql.ref(`${alias}.id`),
  ...fieldsSql(SHIP_COLUMNS, alias),
  createdAt: isoSql(sql.ref(`${alias}.created_at`)),
})

/** Creates the ship and its `ship.created` event in one statement. */
export async function createShip(db: Db, source: EventSource | Actor, ship: ShipColumns & { name: string; imo_number: string }) {
  const values = { id: uuidv7(), organization_id: source.orgId, ...ship }
  const row = await uniqueImo(
    db
      .with('a', (qc) => qc.insertInto('ships').values(values).returningAll())
      .with('audit', (qc) => eventsInsert(qc, source, 'ship.created', 'ship', objectRows(shipWire('a'), 'a'), uuidv7s(1)))
      .selectFrom('a')
      .selectAll()
      .executeTakeFirstOrThrow(),
  )
  return toShip(row)
}

/**
 * Updates the ship and writes its `ship.updated` event (none when no field changed) in one
 * statement; undefined when there is none. `o` locks the row, so it is the version the update replaces.
 */
export async function updateShip(db: Db, source: EventSource | Actor, shipId: string, changes: ShipColumns): Promise<Ship | undefined> {
  const { orgId } = source
  if (Object.keys(changes).length === 0) {
    const row = await findShip(db, orgId, shipId)
    return row && toShip(row)
  }
  const row = await uniqueImo(
    db
      .with('o', (qc) => qc.selectFrom('ships').selectAll().where('organization_id', '=', orgId).where('id', '=', shipId).forUpdate())
      .with('a', (qc) =>
        qc
          .updateTable('ships')
          .set({ ...changes, updated_at: new Date() })
          .where('id', 'in', qc.selectFrom('o').select('o.id'))
          .returningAll(),
      )
      .with('audit', (qc) => eventsInsert(qc, source, 'ship.updated', 'ship', updatedRows(shipWire), uuidv7s(1)))
      .selectFrom('a')
      .selectAll()
      .executeTakeFirst(),
  )
  return row && toShip(row)
}

/** Deletes the ship and writes its `ship.deleted` event in one statement; false when there is none. */
export async function deleteShip(db: Db, source: EventSource | Actor, shipId: string): Promise<boolean> {
  try {
    const row = await db
      .with('a', (qc) => qc.deleteFrom('ships').where('organization_id', '=', source.orgId).where('id', '=', shipId).returningAll())
      .with('audit', (qc) => eventsInsert(qc, source, 'ship.deleted', 'ship', objectRows(shipWire('a'), 'a'), uuidv7s(1)))
      .selectFrom('a')
      .select('a.id')
      .executeTakeFirst()
    return row !== undefined
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
