import type { Db } from '../../../db/database.js'
import { fieldsOf } from '../../../lib/columns.js'
import { type ExpiringRow, expiringById, expiringOfUser, expiringWireSql, toExpiringFields } from './crew-records.queries.js'
import type { ExpiryListQuery } from './crew-records.schemas.js'
import type { ExpiringKind } from './expiring-records.js'
import { type InsertOutcome, type NewReviewed, reviewedInsert } from './reviewed-writes.queries.js'

// The reads and the create of an expiring record, over its kind's descriptor.

/** The map of every wire field stored as a column: the kind's type, its settable fields and those the system sets. */
const columnsOf = (kind: ExpiringKind) => ({ [kind.typeField.wire]: kind.typeField.column, ...kind.columns, ...kind.systemColumns })

/** A record as the client receives it, from its row and its verification's. */
export const toExpiringRecord = (kind: ExpiringKind, row: ExpiringRow) => ({
  ...toExpiringFields(row),
  ...fieldsOf(columnsOf(kind), row as unknown as Record<string, unknown>),
})

/** The same wire shape in SQL (DECISIONS §11's data), over a record's row and its verification's. */
export const expiringWire = (kind: ExpiringKind, orgId: string, days: number) => expiringWireSql(kind.table, columnsOf(kind), orgId, days)

export async function listExpiring(db: Db, kind: ExpiringKind, orgId: string, days: number, userId: string, query?: ExpiryListQuery) {
  const rows = await expiringOfUser(db, kind.table, orgId, days, userId, query).selectAll(kind.table).execute()
  return rows.map((row) => toExpiringRecord(kind, row as ExpiringRow))
}

export async function findExpiring(db: Db, kind: ExpiringKind, orgId: string, days: number, id: string, ownerId?: string) {
  const row = await expiringById(db, kind.table, orgId, days, id, ownerId).selectAll(kind.table).executeTakeFirst()
  return row && toExpiringRecord(kind, row as ExpiringRow)
}

/** One compiled create per kind: its statement differs by table and event. */
const inserts = new Map<ExpiringKind, ReturnType<typeof reviewedInsert>>()

/** Creates a record, its verification and its created event in one statement (`reviewedInsert`). */
export async function insertExpiring(
  db: Db,
  kind: ExpiringKind,
  orgId: string,
  days: number,
  record: NewReviewed<ExpiringKind['table']>,
): Promise<InsertOutcome<ReturnType<typeof toExpiringRecord>>> {
  let insert = inserts.get(kind)
  if (!insert) {
    insert = reviewedInsert(kind.table, kind.created, (p) => expiringWire(kind, p.orgId, p.days!))
    inserts.set(kind, insert)
  }
  const outcome = await insert(db, { orgId, record, days })
  if (outcome.found !== 'created') return outcome
  return { found: 'created', row: toExpiringRecord(kind, outcome.row as unknown as ExpiringRow) }
}
