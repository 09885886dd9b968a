import { type Queued, queueOf, settleQueued } from './store.js'

// Sends the signed-in user's queue when a link is there (DECISIONS §16): oldest first, per session in
// the order recorded, gzip-compressed; the service takes replays harmlessly (statement ids, commit seq).

interface SessionResult {
  sessionId: string
  refused: { statementId?: string; seq?: number; reason: string }[]
}

/** How many records one request carries: the service takes up to 1,000 per kind and session. */
const BATCH = 500

async function gzip(text: string): Promise<Blob> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))
  return new Response(stream).blob()
}

/** The request body of a batch: its records grouped by session, sessions in the order of their oldest record. */
export function syncBody(batch: Queued[]) {
  const sessions = new Map<string, { sessionId: string; credential: string; statements: unknown[]; commits: unknown[] }>()
  for (const item of batch) {
    const entry = sessions.get(item.sessionId) ?? { sessionId: item.sessionId, credential: item.credential, statements: [], commits: [] }
    sessions.set(item.sessionId, entry)
    ;(item.kind === 'statement' ? entry.statements : entry.commits).push(item.record)
  }
  return { sessions: [...sessions.values()] }
}

/** One pass over the user's queue; answers how many records are still waiting (refused ones included). */
export async function syncQueue(userId: string, fetcher: typeof fetch): Promise<number> {
  const waiting = (await queueOf(userId)).filter((item) => !item.refused)
  for (let start = 0; start < waiting.length; start += BATCH) {
    const batch = waiting.slice(start, start + BATCH)
    const response = await fetcher('/api/v1/learn/offline/sync', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: await gzip(JSON.stringify(syncBody(batch))),
    })
    if (!response.ok) throw new Error(`The service answered ${response.status}`)
    const { sessions } = (await response.json()) as { sessions: SessionResult[] }
    const reasons = new Map<string, string>(
      sessions.flatMap((s) => s.refused.map((r) => [`${s.sessionId}:${r.statementId ?? r.seq}`, r.reason] as const)),
    )
    const keyOf = (item: Queued) => `${item.sessionId}:${String(item.kind === 'statement' ? item.record.id : item.record.seq)}`
    await settleQueued(
      batch.filter((item) => !reasons.has(keyOf(item))).map((item) => item.id as number),
      batch
        .filter((item) => reasons.has(keyOf(item)))
        .map((item) => ({ id: item.id as number, reason: reasons.get(keyOf(item)) as string })),
    )
  }
  return (await queueOf(userId)).length
}
