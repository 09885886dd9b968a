import { type DBSchema, type IDBPDatabase, openDB } from 'idb'

// The device's own copy (DECISIONS §16), per user: several people share one ship's PC or phone, so every
// record is keyed by the user it belongs to and read only for the one signed in.

export interface Snapshot {
  userId: string
  /** The query's key as JSON: which screen data it is. */
  key: string
  data: unknown
  /** Epoch milliseconds when the service answered it: the "as of" shown offline. */
  at: number
}

/** A record made offline, waiting for a link: statements and commits of a session, or a document photo. */
export interface Queued {
  id?: number
  userId: string
  sessionId: string
  credential: string
  kind: 'statement' | 'commit' | 'document'
  /** The xAPI statement, `{seq, cmi, terminate}`, or a state document's last version (its parameters, body and `writtenAt`). */
  record: Record<string, unknown>
  at: number
  /** The service's reason when it refused the record: kept and shown, never dropped. */
  refused?: string
}

/** A course session taken offline on this device (DECISIONS §16): what plays it and what syncs its records. */
export interface Download {
  userId: string
  sessionId: string
  registrationId: string
  auIndex: number
  title: string
  standard: 'cmi5' | 'scorm12' | 'scorm2004'
  /** The launch URL, opened to play (on the content origin, whose service worker answers it from the device). */
  url: string
  contentOrigin: string
  files: { url: string; bytes: number; sha256: string }[]
  totalBytes: number
  expiresAt: string
  /** The session's credential, as the sync sends it. */
  credential: string
  /** What the content origin keeps to answer the course with no link (content/offline.ts). */
  session: Record<string, unknown>
  /** All files kept on the device. */
  ready: boolean
  /** The course ended its session (terminated): its records are in the queue; playing again needs a new download. */
  ended: boolean
  at: number
}

/** A document made with no link, with its scan: created (upload, then the record) when the link returns. */
export interface QueuedDocument {
  id?: number
  userId: string
  /** Which kind of record: its profile query (`documents` or `certificates`). */
  kind: string
  body: Record<string, string | null>
  file: { blob: Blob; name: string; type: string } | null
  /** Sent as Idempotency-Key with the record, so a create whose answer was lost is not made twice. */
  key: string
  /** The scan's resumable (tus) upload while under way: a pass after a dropped link continues it at its offset. */
  uploadUrl?: string
  /** The scan's upload once done, so a retry does not send the file again. */
  uploadId?: string
  at: number
  refused?: string
}

interface OfflineDb extends DBSchema {
  documents: { key: number; value: QueuedDocument; indexes: { byUser: string } }
  snapshots: { key: [string, string]; value: Snapshot; indexes: { byUser: string } }
  queue: { key: number; value: Queued; indexes: { byUser: string } }
  downloads: { key: [string, string]; value: Download; indexes: { byUser: string } }
}

let opened: Promise<IDBPDatabase<OfflineDb>> | undefined

export function offlineDb(): Promise<IDBPDatabase<OfflineDb>> {
  opened ??= openDB<OfflineDb>('seaworthy-offline', 3, {
    upgrade(db, from) {
      if (from < 1) {
        db.createObjectStore('snapshots', { keyPath: ['userId', 'key'] }).createIndex('byUser', 'userId')
        db.createObjectStore('queue', { keyPath: 'id', autoIncrement: true }).createIndex('byUser', 'userId')
      }
      if (from < 2) db.createObjectStore('downloads', { keyPath: ['userId', 'sessionId'] }).createIndex('byUser', 'userId')
      if (from < 3) db.createObjectStore('documents', { keyPath: 'id', autoIncrement: true }).createIndex('byUser', 'userId')
    },
  })
  return opened
}

export async function saveSnapshot(snapshot: Snapshot): Promise<void> {
  await (await offlineDb()).put('snapshots', snapshot)
}

export async function snapshotsOf(userId: string): Promise<Snapshot[]> {
  return (await offlineDb()).getAllFromIndex('snapshots', 'byUser', userId)
}

/** The user's queue, oldest first (keys grow with each record). */
export async function queueOf(userId: string): Promise<Queued[]> {
  return (await offlineDb()).getAllFromIndex('queue', 'byUser', userId)
}

export async function enqueue(records: Queued[]): Promise<void> {
  const tx = (await offlineDb()).transaction('queue', 'readwrite')
  await Promise.all([...records.map((record) => tx.store.add(record)), tx.done])
}

export async function settleQueued(taken: number[], refused: { id: number; reason: string }[]): Promise<void> {
  const tx = (await offlineDb()).transaction('queue', 'readwrite')
  const marked = refused.map(async ({ id, reason }) => {
    const record = await tx.store.get(id)
    if (record) await tx.store.put({ ...record, refused: reason })
  })
  await Promise.all([...taken.map((id) => tx.store.delete(id)), ...marked, tx.done])
}

export async function downloadsOf(userId: string): Promise<Download[]> {
  return (await offlineDb()).getAllFromIndex('downloads', 'byUser', userId)
}

export async function saveDownload(download: Download): Promise<void> {
  await (await offlineDb()).put('downloads', download)
}

export async function deleteDownload(userId: string, sessionId: string): Promise<void> {
  await (await offlineDb()).delete('downloads', [userId, sessionId])
}

export async function documentsOf(userId: string): Promise<QueuedDocument[]> {
  return (await offlineDb()).getAllFromIndex('documents', 'byUser', userId)
}

export async function putDocument(document: QueuedDocument): Promise<void> {
  await (await offlineDb()).put('documents', document)
}

export async function deleteDocument(id: number): Promise<void> {
  await (await offlineDb()).delete('documents', id)
}
