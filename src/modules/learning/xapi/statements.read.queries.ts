import { type RawBuilder, sql, type Transaction } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB } from '../../../db/schema.js'

type Executor = Db | Transaction<DB>

/** A statement query (xAPI 1.0.3 §2.1.3 GET Statements) as the filter columns read it. */
export interface StatementFilter {
  agentKey?: string
  relatedAgents?: boolean
  verbId?: string
  activityId?: string
  relatedActivities?: boolean
  registration?: string
  /** Only what this credential wrote (`statements/read/mine`). */
  credentialId?: string
  since?: string
  /** Inclusive; the `more` links pin it to the first page's time so that paging is stable while others write. */
  until?: string
  ascending: boolean
  limit: number
  /** The last statement of the previous page. */
  after?: { stored: string; seq: number }
}

export interface ListedStatement {
  stored: string
  seq: number
  statement: Record<string, unknown>
}

/** The conditions a statement's own columns meet (agent, verb, activity, registration). */
function ownConditions(alias: string, f: StatementFilter): RawBuilder<unknown>[] {
  const col = (name: string) => sql.ref(`${alias}.${name}`)
  const conditions: RawBuilder<unknown>[] = []
  if (f.agentKey !== undefined) {
    conditions.push(
      f.relatedAgents
        ? sql`${col('related_agents')} @> array[${f.agentKey}]::text[]`
        : sql`(${col('actor_key')} = ${f.agentKey} or ${col('object_agent_key')} = ${f.agentKey})`,
    )
  }
  if (f.verbId !== undefined) conditions.push(sql`${col('verb_id')} = ${f.verbId}`)
  if (f.activityId !== undefined) {
    conditions.push(
      f.relatedActivities
        ? sql`${col('related_activities')} @> array[${f.activityId}]::text[]`
        : sql`${col('activity_id')} = ${f.activityId}`,
    )
  }
  if (f.registration !== undefined) conditions.push(sql`${col('registration')} = ${f.registration}::uuid`)
  return conditions
}

/** Time, page and credential bounds: they apply to the statement returned, never to the one it targets. */
function pageConditions(f: StatementFilter): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = [sql`not s.voided`]
  if (f.since !== undefined) conditions.push(sql`s.stored > ${f.since}::timestamptz`)
  if (f.until !== undefined) conditions.push(sql`s.stored <= ${f.until}::timestamptz`)
  if (f.credentialId !== undefined) conditions.push(sql`s.credential_id = ${f.credentialId}::uuid`)
  if (f.after) {
    conditions.push(
      f.ascending
        ? sql`(s.stored, s.seq) > (${f.after.stored}::timestamptz, ${f.after.seq}::bigint)`
        : sql`(s.stored, s.seq) < (${f.after.stored}::timestamptz, ${f.after.seq}::bigint)`,
    )
  }
  return conditions
}

const and = (conditions: RawBuilder<unknown>[]) => sql.join(conditions, sql` and `)

/**
 * One page of statements, `limit + 1` rows (the extra one says whether there is more). A statement
 * that targets another (StatementRef, e.g. a voiding statement) matches the filters its target
 * matches (xAPI 1.0.3 §2.1.3), found through the statement_ref index.
 */
export async function listStatements(db: Executor, orgId: string, f: StatementFilter): Promise<ListedStatement[]> {
  const direction = f.ascending ? sql`asc` : sql`desc`
  const own = ownConditions('s', f)
  const page = [sql`s.organization_id = ${orgId}::uuid`, ...pageConditions(f)]
  const take = f.limit + 1
  const direct = sql`(select s.id, s.stored, s.seq from xapi_statements s where ${and([...page, ...own])}
    order by s.stored ${direction}, s.seq ${direction} limit ${take})`
  const referring = sql`(select s.id, s.stored, s.seq from xapi_statements s
      join xapi_statements t on t.organization_id = s.organization_id and t.id = s.statement_ref
    where ${and([...page, sql`s.statement_ref is not null`, ...ownConditions('t', f)])}
    order by s.stored ${direction}, s.seq ${direction} limit ${take})`
  const found = own.length ? sql`${direct} union ${referring}` : direct
  const { rows } = await sql<{ stored: Date; seq: number; statement: Record<string, unknown> }>`
    select x.stored, x.seq, s.statement from (${found}) x
      join xapi_statements s on s.organization_id = ${orgId}::uuid and s.id = x.id
    order by x.stored ${direction}, x.seq ${direction} limit ${take}`.execute(db)
  return rows.map((row) => ({ stored: row.stored.toISOString(), seq: Number(row.seq), statement: row.statement }))
}

/** One statement by id, voided or not (the route decides which it may show). */
export function findStatement(db: Executor, orgId: string, id: string, credentialId?: string) {
  let query = db
    .selectFrom('xapi_statements')
    .select(['statement', 'voided', 'stored'])
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
  if (credentialId !== undefined) query = query.where('credential_id', '=', credentialId)
  return query.executeTakeFirst()
}

/** Every statement of one registration that is not voided, oldest first: what cmi5's rules read. */
export async function registrationStatements(db: Executor, orgId: string, registration: string): Promise<Record<string, unknown>[]> {
  const rows = await db
    .selectFrom('xapi_statements')
    .select('statement')
    .where('organization_id', '=', orgId)
    .where('registration', '=', registration)
    .where('voided', '=', false)
    .orderBy('stored')
    .orderBy('seq')
    .execute()
  return rows.map((row) => row.statement)
}
