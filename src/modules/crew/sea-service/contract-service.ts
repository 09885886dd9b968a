import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { todayUtc } from '../../../lib/dates.js'
import { retryTransient } from '../../../lib/db-errors.js'
import { syncContractService } from './contract-service.queries.js'

/**
 * After a create, a PATCH or a bulk write of assignments: the sea service of those that have ended, or
 * whose endDate the write touched (a contract reopened loses its row), is brought into step at once
 * (DECISIONS §14). Writes that leave every contract running cost no statement. The follow-up runs
 * after the write's own statement: should it fail, the sweep brings the rows into step on its next run.
 */
export async function syncAfterAssignmentWrite(
  db: Db,
  actor: Actor,
  rows: readonly { id: string; end_date: string | null }[],
  endDateTouched: boolean,
): Promise<void> {
  const today = todayUtc()
  const ids = rows.filter((row) => endDateTouched || (row.end_date !== null && row.end_date < today)).map((row) => row.id)
  if (ids.length === 0) return
  const sync = () => syncContractService(db, { orgId: actor.orgId, assignmentIds: ids, actor }, today)
  // Alone, the statement may run again after a deadlock; inside a transaction, the transaction is lost with it.
  await (db.isTransaction ? sync() : retryTransient(sync))
}
