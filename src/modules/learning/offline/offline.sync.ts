import { type Actor, MANAGERS, rowOwner } from '../../../lib/access.js'
import { AppError, invalid, ValidationFailed } from '../../../lib/errors.js'
import { sessionCredentials } from '../launch/session-credentials.js'
import type { StandardsDeps } from '../launch/standard.js'
import { commitScorm } from '../standards/scorm/scorm.service.js'
import type { XapiPrincipal } from '../xapi/auth.js'
import { XapiError } from '../xapi/errors.js'
import { findStatementsByIds } from '../xapi/statements.queries.js'
import { store } from '../xapi/statements.routes.js'
import { syncDocuments } from './offline.documents.js'
import { recordCommitSeq, syncSessions } from './offline.queries.js'
import {
  type Refusal,
  SYNC_MAX_RECORDS,
  type SyncCreate,
  type SyncResult,
  type SyncSessionRecords,
  type SyncSessionResult,
} from './offline.schemas.js'

// The console's queue after the fact (DECISIONS §16): each session's records go, in the order given,
// through the very calls a live AU or player makes (the LRS's session store, the SCORM commit), so they
// are judged exactly as if they had arrived live. What was taken before is recognised first (a statement
// by its id, a commit by its sequence number) and changes nothing.

type Json = Record<string, any>

/** A rule broken (any 4xx of the live paths): the record is refused, the sync carries on. */
const refusalOf = (error: unknown): string | null =>
  error instanceof XapiError || error instanceof ValidationFailed || (error instanceof AppError && error.statusCode < 500)
    ? error.message
    : null

/** Syncs each session's records in the order given (the console sends its oldest first). */
export async function sync(deps: StandardsDeps, actor: Actor, body: SyncCreate): Promise<SyncResult> {
  // One request's work is bounded in all, not only per session: each record may be stored on its own.
  const records = body.sessions.reduce((n, s) => n + (s.statements?.length ?? 0) + (s.commits?.length ?? 0) + (s.documents?.length ?? 0), 0)
  if (records > SYNC_MAX_RECORDS)
    throw invalid(['body', 'sessions'], `At most ${SYNC_MAX_RECORDS} records in one sync; send the rest in the next`)
  const ids = body.sessions.map((s) => s.sessionId)
  const known = new Map((await syncSessions(deps.db, actor.orgId, ids, rowOwner(actor, MANAGERS))).map((row) => [row.id, row]))
  const statementIds = body.sessions.flatMap((s) => (known.has(s.sessionId) ? (s.statements ?? []).map((st) => st.id) : []))
  const stored = new Set((await findStatementsByIds(deps.db, actor.orgId, statementIds)).map((row) => row.id))
  const sessions: SyncSessionResult[] = []
  for (const records of body.sessions) {
    const session = known.get(records.sessionId)
    sessions.push(session ? await syncSession(deps, records, session.commit_seq, stored) : refuseAll(records, 'Launch session not found'))
  }
  return { sessions }
}

function refuseAll(records: SyncSessionRecords, reason: string): SyncSessionResult {
  const refused: Refusal[] = [
    ...(records.statements ?? []).map((st) => ({ statementId: st.id, reason })),
    ...(records.commits ?? []).map((commit) => ({ seq: commit.seq, reason })),
    ...(records.documents ?? []).map((_, document) => ({ document, reason })),
  ]
  return { sessionId: records.sessionId, accepted: 0, refused }
}

async function syncSession(
  deps: StandardsDeps,
  records: SyncSessionRecords,
  lastSeq: number | null,
  stored: Set<string>,
): Promise<SyncSessionResult> {
  const authorization = `Basic ${records.credential}`
  const statements = records.statements ?? []
  const documents = records.documents ?? []
  const fresh = statements.filter((st) => !stored.has(st.id))
  const result = { sessionId: records.sessionId, accepted: statements.length - fresh.length, refused: [] as Refusal[] }
  if (fresh.length > 0 || documents.length > 0) {
    const principal = await sessionCredentials(deps.config, deps.standards)(authorization, deps).catch((error: unknown) => {
      const reason = refusalOf(error)
      if (reason === null) throw error
      return reason
    })
    if (principal === null || typeof principal === 'string')
      return refuseAll({ ...records, statements: fresh }, principal ?? 'Not this session’s credential')
    // Documents first: they were written during the session, and the statements may end it (closing its credential).
    await syncDocuments(deps.db, principal, documents, result, refusalOf)
    if (fresh.length > 0) await storeInOrder(deps, principal, fresh, result)
  }
  let applied: number | undefined
  try {
    for (const commit of records.commits ?? []) {
      if (lastSeq !== null && commit.seq <= lastSeq) {
        result.accepted++
        continue
      }
      const answer = await commitScorm(deps, records.sessionId, authorization, { cmi: commit.cmi, terminate: commit.terminate === true })
      if (answer.result === 'false') {
        result.refused.push({ seq: commit.seq, reason: answer.errorText ?? `SCORM error ${answer.errorCode}` })
        continue
      }
      result.accepted++
      applied = Math.max(applied ?? commit.seq, commit.seq)
    }
  } finally {
    // Kept even when a later commit fails on the way: a retried sync does not apply the earlier ones again.
    if (applied !== undefined) await recordCommitSeq(deps.db, records.sessionId, applied)
  }
  return result
}

/**
 * The statements as one batch, as an AU may send them; when a rule refuses the batch (which then stores
 * nothing), one by one in their order, so each is taken or refused on its own as it would have been live.
 */
async function storeInOrder(
  deps: StandardsDeps,
  principal: XapiPrincipal,
  statements: readonly Json[],
  result: { accepted: number; refused: Refusal[] },
) {
  try {
    await store(deps, principal, [...statements], [])
    result.accepted += statements.length
  } catch (error) {
    const reason = refusalOf(error)
    if (reason === null) throw error
    if (statements.length === 1) result.refused.push({ statementId: statements[0].id, reason })
    else for (const statement of statements) await storeInOrder(deps, principal, [statement], result)
  }
}
