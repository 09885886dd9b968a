import { isDeepStrictEqual } from 'node:util'
import type { Transaction } from 'kysely'
import { v4 as uuidv4 } from 'uuid'
import type { Db } from '../../../db/database.js'
import type { DB } from '../../../db/schema.js'
import { agentKey, relatedActivities, relatedAgents, type XapiAgent } from './agents.js'
import { badRequest, XapiError } from './errors.js'
import type { AttachmentContent } from './multipart.js'
import { assertSignature } from './signature.js'
import { assertValidStatement, normalizeStatement } from './statement-rules.js'
import { findStatementsByIds, insertAttachments, insertStatements, type StatementRow, voidStatements } from './statements.queries.js'

type Json = Record<string, any>
type Executor = Db | Transaction<DB>

export const VOIDED = 'http://adlnet.gov/expapi/verbs/voided'

/** Who stores: the authority the LRS sets on every statement, and the credential (for `statements/read/mine`). */
export interface StoredBy {
  authority: XapiAgent
  credentialId: string | null
}

/** Properties that do not make two statements different (xAPI 1.0.3 §2.3.1 "Statement comparison"). */
const IGNORED = new Set(['authority', 'stored', 'timestamp', 'version', 'id', 'attachments'])
const comparable = (statement: Json) => Object.fromEntries(Object.entries(statement).filter(([key]) => !IGNORED.has(key)))

function prepare(statement: Json, by: StoredBy, stored: string): StatementRow {
  const id = (statement.id ?? uuidv4()).toLowerCase()
  const whole: Json = {
    ...statement,
    id,
    timestamp: statement.timestamp ?? stored,
    stored,
    authority: by.authority,
    version: statement.version ?? '1.0.0',
  }
  const object = whole.object ?? {}
  const isActivity = object.objectType === undefined || object.objectType === 'Activity'
  const isAgent = object.objectType === 'Agent' || object.objectType === 'Group'
  return {
    id,
    stored,
    credential_id: by.credentialId,
    actor_key: agentKey(whole.actor),
    object_agent_key: isAgent ? agentKey(object) : null,
    verb_id: whole.verb.id,
    activity_id: isActivity ? object.id : null,
    statement_ref: object.objectType === 'StatementRef' ? String(object.id).toLowerCase() : null,
    registration: whole.context?.registration?.toLowerCase() ?? null,
    related_agents: relatedAgents(whole),
    related_activities: relatedActivities(whole),
    statement: whole,
  }
}

/** Two definitions of one activity as one: later fields win, language maps keep every language (the SQL upsert does the same). */
function mergeDefinitions(earlier: Json | null, later: Json | null): Json | null {
  if (!earlier || !later) return later ?? earlier
  const merged: Json = { ...earlier, ...later }
  for (const map of ['name', 'description']) if (earlier[map] && later[map]) merged[map] = { ...earlier[map], ...later[map] }
  return merged
}

/**
 * Every activity the statements define (object, SubStatement object, context activities), one merged
 * definition each. An activity named without a definition is not kept: `GET activities` answers such an
 * id as it answers an unknown one.
 */
function activitiesOf(rows: readonly StatementRow[]) {
  const byId = new Map<string, Json>()
  const visit = (activity: Json | undefined) => {
    if (!activity?.definition || (activity.objectType !== undefined && activity.objectType !== 'Activity')) return
    byId.set(activity.id, mergeDefinitions(byId.get(activity.id) ?? null, activity.definition) as Json)
  }
  for (const { statement } of rows) {
    const s = statement as Json
    const objects = [s.object, s.object?.objectType === 'SubStatement' ? s.object.object : undefined]
    const context = [s.context, s.object?.context].flatMap((c) => Object.values(c?.contextActivities ?? {}).flat() as Json[])
    for (const activity of [...objects, ...context]) visit(activity)
  }
  return [...byId].map(([id, definition]) => ({ id, definition }))
}

/** Each attachment without a fileUrl must come with its bytes, and each part must be an attachment some statement names. */
function attachmentsToKeep(statements: readonly Json[], contents: readonly AttachmentContent[]): AttachmentContent[] {
  const given = new Map(contents.map((c) => [c.sha2, c]))
  const named = new Set<string>()
  for (const [index, statement] of statements.entries()) {
    for (const attachment of statement.attachments ?? []) {
      // With a fileUrl the bytes may come along or stay at that URL.
      if (attachment.fileUrl === undefined && !given.has(attachment.sha2)) {
        throw badRequest(`statements[${index}].attachments: no part carries the attachment ${attachment.sha2}`)
      }
      named.add(attachment.sha2)
    }
  }
  if (contents.some((c) => !named.has(c.sha2))) throw badRequest('attachments: a part carries an attachment no statement names')
  return [...given.values()].filter((c) => named.has(c.sha2))
}

/**
 * Stores a batch of statements atomically with a constant number of SQL statements (DECISIONS §13.1):
 * validated, each given its id, `stored`, `timestamp` and the LRS's `authority`. A statement
 * whose id is already stored with the same content is not stored again; with other content it is a
 * 409. Voiding statements void their targets. Returns the ids in the order given. Other modules call
 * this inside their own transaction (cmi5's `launched`, `satisfied`, …) with an authority of their own.
 */
export async function storeStatements(
  db: Executor,
  orgId: string,
  statements: readonly unknown[],
  by: StoredBy,
  attachments: readonly AttachmentContent[] = [],
): Promise<string[]> {
  const normalized = statements.map((statement, index) => {
    const at = statements.length === 1 ? 'statement' : `statements[${index}]`
    const shaped =
      statement && typeof statement === 'object' && !Array.isArray(statement) ? normalizeStatement(statement as Json) : statement
    assertValidStatement(shaped, at)
    return shaped as Json
  })
  const stored = new Date().toISOString()
  const rows = normalized.map((statement) => prepare(statement, by, stored))
  const ids = rows.map((row) => row.id)
  if (new Set(ids).size !== ids.length) throw badRequest('statements: two statements of the batch have the same id')
  const kept = attachmentsToKeep(normalized, attachments)
  for (const [index, statement] of normalized.entries()) await assertSignature(statement, kept, `statements[${index}]`)
  const voiding = rows.filter((row) => row.verb_id === VOIDED)
  const targets = voiding.map((row) => row.statement_ref as string)
  // Only an id the client gave can already be stored: the ids this LRS gives are fresh random UUIDs.
  const given = rows.filter((_, index) => normalized[index].id !== undefined).map((row) => row.id)
  const existing = new Map((await findStatementsByIds(db, orgId, [...given, ...targets])).map((row) => [row.id, row]))
  for (const row of voiding) {
    if (existing.get(row.statement_ref as string)?.verb_id === VOIDED)
      throw badRequest(`statement ${row.id}: a voiding statement cannot void another voiding statement`)
  }
  const fresh = rows.filter((row) => {
    const stored = existing.get(row.id)
    if (!stored) return true
    if (!isDeepStrictEqual(comparable(stored.statement), comparable(row.statement))) {
      throw new XapiError(409, `statement ${row.id} is already stored with other content`)
    }
    return false
  })
  const voids = fresh.filter((row) => row.verb_id === VOIDED).map((row) => row.statement_ref as string)
  const write = async (executor: Executor) => {
    await insertStatements(executor, orgId, fresh, activitiesOf(fresh))
    await voidStatements(executor, orgId, voids)
    await insertAttachments(executor, orgId, kept)
  }
  // The statements and their activities are one SQL statement: a transaction (two more round trips) only
  // when voiding or attachments add another. The check above reads as a statement of a READ COMMITTED
  // transaction would.
  if (db.isTransaction || (voids.length === 0 && kept.length === 0)) await write(db)
  else await db.transaction().execute(write)
  return ids
}
