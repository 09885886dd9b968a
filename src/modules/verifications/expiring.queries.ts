import { sql } from 'kysely'
import type { Db } from '../../db/database.js'
import { todayUtcSql } from '../../lib/dates.js'
import { type ExpiringKind, type ExpiringRow, toExpiringItem } from './expiring.js'
import type { ExpiryStatus } from './expiring.schemas.js'
import { selectWithVerification } from './records.queries.js'

/** DECISIONS §3, computed by the database so the filter and the responses agree. */
const expiryStatus = (days: number) => sql<ExpiryStatus>`case
  when r.expiry_date is null then 'valid'
  when r.expiry_date < ${todayUtcSql} then 'expired'
  when r.expiry_date <= ${todayUtcSql} + ${days}::int then 'expiring_soon'
  else 'valid'
end`

const selectExpiring = (db: Db, kind: ExpiringKind, days: number) =>
  selectWithVerification(db, kind).select(expiryStatus(days).as('expiry_status'))

/** A user's records, newest first. */
export async function listExpiring(db: Db, kind: ExpiringKind, days: number, orgId: string, userId: string, status?: ExpiryStatus) {
  let query = selectExpiring(db, kind, days).where('r.organization_id', '=', orgId).where('r.user_id', '=', userId)
  if (status) query = query.where(expiryStatus(days), '=', status)
  const rows = (await query.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').execute()) as ExpiringRow[]
  return rows.map((row) => toExpiringItem(kind, row))
}

export async function findExpiring(db: Db, kind: ExpiringKind, days: number, orgId: string, id: string, ownerId?: string) {
  let query = selectExpiring(db, kind, days).where('r.organization_id', '=', orgId).where('r.id', '=', id)
  if (ownerId) query = query.where('r.user_id', '=', ownerId)
  const row = (await query.executeTakeFirst()) as ExpiringRow | undefined
  return row && toExpiringItem(kind, row)
}
