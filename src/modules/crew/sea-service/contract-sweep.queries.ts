import { sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import { NIL_UUID, type PassInput, type Sweep, WRITES_OVERLAP_MS } from '../../platform/jobs/sweeps.js'
import { syncContractService } from './contract-service.queries.js'

// The contract sea-service sweep (DECISIONS §14) per organization and batch: the contracts that ended
// since the last run (by their end dates), and the contracts and ships written since (by their events:
// the write paths bring their own contracts into step at once, and the sweep catches one whose follow-up
// failed, and a ship's new type). The first run of an organization reads every ended contract.

/** Contracts with an end date in [the last run's today, today): those the last run could not count yet; in (end date, id) order. */
async function ended(db: Db, { orgId, since, today, after, limit }: PassInput) {
  const [day, id] = after ? after.split('|') : [since?.sweptDay ?? '-infinity', NIL_UUID]
  const rows = await db
    .selectFrom('assignments')
    .select(['id', 'end_date'])
    .where('organization_id', '=', orgId)
    .where('end_date', 'is not', null)
    .where('end_date', '<', today)
    .where(sql<boolean>`(end_date, id) > (${day}::date, ${id}::uuid)`)
    .orderBy('end_date')
    .orderBy('id')
    .limit(limit)
    .execute()
  const last = rows.at(-1)
  return { keys: rows.map((r) => r.id), after: rows.length === limit && last ? `${last.end_date}|${last.id}` : null }
}

/** Contracts created or changed since the last run, and those of ships changed since, in id order. */
const written =
  (overlapMs: number) =>
  async (db: Db, { orgId, since, after, limit }: PassInput) => {
    if (!since) return { keys: [], after: null }
    const from = new Date(since.sweptAt.getTime() - overlapMs)
    const { rows } = await sql<{ id: string }>`
    select c.id from (
      select e.target_id as id from events e
      where e.organization_id = ${orgId} and e.type in ('assignment.created', 'assignment.updated') and e.occurred_at >= ${from}
      union
      select a.id from events e join assignments a on a.organization_id = e.organization_id and a.ship_id = e.target_id
      where e.organization_id = ${orgId} and e.type = 'ship.updated' and e.occurred_at >= ${from}
    ) c
    where c.id > ${after ?? NIL_UUID}::uuid order by c.id limit ${limit}`.execute(db)
    return { keys: rows.map((r) => r.id), after: rows.length === limit ? (rows.at(-1)?.id ?? null) : null }
  }

/** The sweep, reading writes from `overlapMs` before the previous run's start. */
export const sweepOfContracts = (overlapMs: number): Sweep => ({
  job: 'sea-service-sweep',
  passes: [ended, written(overlapMs)],
  apply: (db, orgId, keys, today) => syncContractService(db, { orgId, assignmentIds: keys, actor: null }, today),
})

export const contractSweep = sweepOfContracts(WRITES_OVERLAP_MS)
