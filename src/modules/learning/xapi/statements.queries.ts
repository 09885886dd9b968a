import { sql, type Transaction } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB } from '../../../db/schema.js'

type Executor = Db | Transaction<DB>

/** One statement as stored: the filter columns and the whole statement (DECISIONS §13.1 storage). */
export interface StatementRow {
  id: string
  stored: string
  credential_id: string | null
  actor_key: string | null
  object_agent_key: string | null
  verb_id: string
  activity_id: string | null
  statement_ref: string | null
  registration: string | null
  related_agents: string[]
  related_activities: string[]
  statement: Record<string, unknown>
}

/** The statements of the organization among `ids`, with whether they are voided: one statement (one array parameter) for any number. */
export async function findStatementsByIds(db: Executor, orgId: string, ids: readonly string[]) {
  if (ids.length === 0) return []
  return db
    .selectFrom('xapi_statements')
    .select(['id', 'verb_id', 'voided', 'statement'])
    .where('organization_id', '=', orgId)
    .where('id', '=', sql<string>`any(${ids}::uuid[])`)
    .execute()
}

/**
 * A batch is one SQL statement: the rows travel as one jsonb array read back by jsonb_to_recordset, and
 * the activity definitions they carry merge into the canonical ones in the same statement (no transaction
 * of its own needed, one round trip).
 */
export async function insertStatements(
  trx: Executor,
  orgId: string,
  rows: readonly StatementRow[],
  activities: readonly { id: string; definition: Record<string, unknown> }[],
): Promise<void> {
  if (rows.length === 0) return
  await sql`
    with inserted as (
      insert into xapi_statements (organization_id, id, stored, credential_id, actor_key, object_agent_key, verb_id,
        activity_id, statement_ref, registration, related_agents, related_activities, statement)
      select ${orgId}::uuid, r.id, r.stored, r.credential_id, r.actor_key, r.object_agent_key, r.verb_id,
        r.activity_id, r.statement_ref, r.registration,
        array(select jsonb_array_elements_text(r.related_agents)), array(select jsonb_array_elements_text(r.related_activities)),
        r.statement
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id uuid, stored timestamptz, credential_id uuid,
        actor_key text, object_agent_key text, verb_id text, activity_id text, statement_ref uuid, registration uuid,
        related_agents jsonb, related_activities jsonb, statement jsonb)
    ), activities as (
      select a.id, a.definition from jsonb_to_recordset(${JSON.stringify(activities)}::jsonb) as a(id text, definition jsonb)
    ), ${mergedActivities(orgId)}
    select 1`.execute(trx)
}

const merged = sql`case
  when xapi_activities.definition is null then excluded.definition
  else xapi_activities.definition || excluded.definition || jsonb_strip_nulls(jsonb_build_object(
    'name', nullif(coalesce(xapi_activities.definition->'name', '{}') || coalesce(excluded.definition->'name', '{}'), '{}'::jsonb),
    'description', nullif(coalesce(xapi_activities.definition->'description', '{}') || coalesce(excluded.definition->'description', '{}'), '{}'::jsonb)))
  end`

/**
 * Activity definitions merge into the canonical one: newer fields win, language maps keep every language.
 * A known activity is updated only when the merge changes something: an update that changes nothing
 * would still write a row version. In id order, so concurrent batches lock alike.
 */
const mergedActivities = (orgId: string) => sql`
  defined as (
    insert into xapi_activities (organization_id, id, definition)
    select ${orgId}::uuid, a.id, a.definition from activities a order by a.id
    on conflict (organization_id, id) do update set definition = ${merged}
    where xapi_activities.definition is distinct from ${merged}
  )`

/** Voiding (the one change the append-only trigger lets through): one UPDATE for the batch's targets. */
export async function voidStatements(trx: Executor, orgId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return
  await trx
    .updateTable('xapi_statements')
    .set({ voided: true })
    .where('organization_id', '=', orgId)
    .where('id', 'in', ids)
    .where('voided', '=', false)
    .execute()
}

/**
 * Activity definitions merge into the canonical one: newer fields win, language maps keep every language.
 * An activity already known is updated only when the statement defines it and the merge changes something:
 * a no-op update would still write a new row version. In id order, so concurrent batches lock alike.
 */
export async function insertAttachments(
  trx: Executor,
  orgId: string,
  attachments: readonly { sha2: string; contentType: string; content: Buffer }[],
): Promise<void> {
  if (attachments.length === 0) return
  await trx
    .insertInto('xapi_attachments')
    .values(attachments.map((a) => ({ organization_id: orgId, sha2: a.sha2, content_type: a.contentType, content: a.content })))
    .onConflict((oc) => oc.columns(['organization_id', 'sha2']).doNothing())
    .execute()
}

export async function findAttachments(db: Executor, orgId: string, hashes: readonly string[]) {
  const rows = await db
    .selectFrom('xapi_attachments')
    .select(['sha2', 'content_type', 'content'])
    .where('organization_id', '=', orgId)
    .where('sha2', 'in', hashes.length ? hashes : [''])
    .execute()
  // PGlite reads bytea as a Uint8Array, pg as a Buffer.
  return rows.map((row) => ({ ...row, content: Buffer.from(row.content) }))
}

export function findActivity(db: Executor, orgId: string, activityId: string) {
  return db
    .selectFrom('xapi_activities')
    .select(['id', 'definition'])
    .where('organization_id', '=', orgId)
    .where('id', '=', activityId)
    .executeTakeFirst()
}
