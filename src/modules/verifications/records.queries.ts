import type { Kysely } from 'kysely'
import type { Db } from '../../db/database.js'
import type { VerificationStatus, VerificationTarget } from '../../db/schema.js'
import type { RecordKind } from './records.js'
import { toVerification } from './verifications.queries.js'
import type { Verification } from './verifications.schemas.js'

// The record tables share id, organization_id, user_id and the timestamps; each module brings its
// own columns. One untyped view of the three keeps these statements written once.
const records = (db: Db) => db as unknown as Kysely<any>

export type RecordRow = Record<string, unknown> & { id: string; user_id: string }

/** The verification columns that `selectWithVerification` adds to a record row. */
export interface VerificationJoin {
  target_type: VerificationTarget | null
  target_id: string | null
  status: VerificationStatus | null
  rejection_reason: string | null
  reviewed_at: Date | null
}

export const embeddedVerification = (row: VerificationJoin): Verification | null =>
  row.target_type && row.target_id && row.status ? toVerification(row as Parameters<typeof toVerification>[0]) : null

export async function insertRecord(trx: Db, kind: RecordKind, values: Record<string, unknown>): Promise<void> {
  await records(trx).insertInto(kind.table).values(values).execute()
}

/** One record, locked until the transaction ends; `ownerId` narrows it to one user's records (crew). */
export function lockRecord(trx: Db, kind: RecordKind, orgId: string, id: string, ownerId?: string): Promise<RecordRow | undefined> {
  let query = records(trx).selectFrom(kind.table).selectAll().where('organization_id', '=', orgId).where('id', '=', id)
  if (ownerId) query = query.where('user_id', '=', ownerId)
  return query.forUpdate().executeTakeFirst() as Promise<RecordRow | undefined>
}

export async function updateRecord(trx: Db, kind: RecordKind, orgId: string, id: string, changes: Record<string, unknown>) {
  await records(trx)
    .updateTable(kind.table)
    .set({ ...changes, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute()
}

export async function deleteRecord(trx: Db, kind: RecordKind, orgId: string, id: string, ownerId?: string): Promise<boolean> {
  let query = records(trx).deleteFrom(kind.table).where('organization_id', '=', orgId).where('id', '=', id)
  if (ownerId) query = query.where('user_id', '=', ownerId)
  const result = await query.executeTakeFirst()
  return result.numDeletedRows > 0n
}

/** Records (alias `r`) with their verification's columns alongside. */
export function selectWithVerification(db: Db, kind: RecordKind) {
  return records(db)
    .selectFrom(`${kind.table} as r`)
    .leftJoin('verifications as v', (join) => join.onRef('v.target_id', '=', 'r.id').on('v.target_type', '=', kind.target))
    .selectAll('r')
    .select(['v.target_type', 'v.target_id', 'v.status', 'v.rejection_reason', 'v.reviewed_at'])
}
