import { type Queued, queueOf, settleQueued } from './store.js'

// Sends the signed-in user's queue when a link is there (DECISIONS §16): oldest first, per session in
// the order recorded, gzip-compressed; the service takes replays harmlessly (statement ids, commit seq, a document's
// time written).

interface SessionResult {
  sessionId: string
  refused: { statementId?: string; seq?: number; document?: number; reason: string }[]
}

/** How many records one request carries: the service takes up to 1,000 in all, and 100 documents per session. */
const BATCH = 500
const BATCH_DOCUMENTS = 100
/** Document bodies per request, in characters: the service reads 16 MiB of JSON at most. */
const BATCH_DOCUMENT_CHARS = 8_000_000

/** The queue cut into requests the service takes whole. */
function batches(waiting: Queued[]): Queued[][] {
  const all: Queued[][] = []
  let documents = 0
  let chars = 0
  for (const item of waiting) {
    const size = item.kind === 'document' ? String(item.record.body ?? '').length : 0
    const last = all.at(-1)
    if (!last || last.length >= BATCH || (size > 0 && (documents >= BATCH_DOCUMENTS || chars + size > BATCH_DOCUMENT_CHARS))) {
      all.push([item])
      documents = 0
      chars = 0
    } else last.push(item)
    if (item.kind === 'document') {
      documents++
      chars += size
    }
  }
  return all
}

async function gzip(text: string): Promise<Blob> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))
  return new Response(stream).blob()
}

type SessionRecords = { sessionId: string; credential: string; statements: unknown[]; commits: unknown[]; documents: unknown[] }

/**
 * The request body of a batch: its records grouped by session, sessions in the order of their oldest record; and
 * each record's key in the answer's refusals (a statement's id, a commit's seq, a document's index in its session).
 */
export function syncBody(batch: Queued[]) {
  const sessions = new Map<string, SessionRecords>()
  const keys = new Map<Queued, string>()
  for (const item of batch) {
    const entry = sessions.get(item.sessionId) ?? {
      sessionId: item.sessionId,
      credential: item.credential,
      statements: [],
      commits: [],
      documents: [],
    }
    sessions.set(item.sessionId, entry)
    const list = item.kind === 'statement' ? entry.statements : item.kind === 'commit' ? entry.commits : entry.documents
    const key = item.kind === 'statement' ? item.record.id : item.kind === 'commit' ? item.record.seq : `document ${list.length}`
    keys.set(item, `${item.sessionId}:${String(key)}`)
    list.push(item.record)
  }
  return { body: { sessions: [...sessions.values()] }, keys }
}

/** One pass over the user's queue; answers how many records are still waiting (refused ones included). */
export async function syncQueue(userId: string, fetcher: typeof fetch): Promise<number> {
  const waiting = (await queueOf(userId)).filter((item) => !item.refused)
  for (const batch of batches(waiting)) {
    const { body, keys } = syncBody(batch)
    const response = await fetcher('/api/v1/learn/offline/sync', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: await gzip(JSON.stringify(body)),
    })
    if (!response.ok) throw new Error(`The service answered ${response.status}`)
    const { sessions } = (await response.json()) as { sessions: SessionResult[] }
    const reasons = new Map<string, string>(
      sessions.flatMap((s) =>
        s.refused.map((r) => {
          const key = r.statementId ?? r.seq ?? `document ${r.document}`
          return [`${s.sessionId}:${key}`, r.reason] as const
        }),
      ),
    )
    const keyOf = (item: Queued) => keys.get(item) as string
    await settleQueued(
      batch.filter((item) => !reasons.has(keyOf(item))).map((item) => item.id as number),
      batch
        .filter((item) => reasons.has(keyOf(item)))
        .map((item) => ({ id: item.id as number, reason: reasons.get(keyOf(item)) as string })),
    )
  }
  return (await queueOf(userId)).length
}
