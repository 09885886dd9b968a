import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../../db/database.js'
import type { Actor } from '../../../lib/access.js'
import { iso } from '../../../lib/dates.js'
import { conflict } from '../../../lib/errors.js'
import type { Metrics } from '../../../lib/metrics.js'
import type { Storage, StoredObject } from '../../../lib/storage.js'
import { inspect } from './uploads.inspect.js'
import { findUpload, markProcessed, markUploaded, type UploadRow } from './uploads.queries.js'
import type { Upload } from './uploads.schemas.js'

// The presigned POST writes `incoming`; processing copies it to a key of its own and checks the copy,
// so nothing written to `incoming` later (a replayed POST) can replace content that was found clean.
export const incomingKey = (orgId: string, uploadId: string) => `${orgId}/${uploadId}/incoming`
const contentKey = (orgId: string, uploadId: string) => `${orgId}/${uploadId}/${uuidv7()}`

/** The wire shape; a ready upload carries a download link valid until `linkExpiresAt`. */
export async function toUpload(row: UploadRow, storage: Storage, linkExpiresAt: Date): Promise<Upload> {
  const download = { contentType: row.mime, filename: row.original_filename, expiresAt: linkExpiresAt }
  const downloadUrl = row.status === 'ready' ? await storage.presignGet(row.storage_key, download) : null
  return { ...withoutLink(row), downloadUrl }
}

/** The wire shape with `downloadUrl` null: what an event carries (a signed link is a credential). */
const withoutLink = (row: UploadRow): Upload => ({
  id: row.id,
  status: row.status,
  kind: row.kind,
  originalFilename: row.original_filename,
  sizeBytes: row.size_bytes ?? row.declared_size,
  createdAt: iso(row.created_at),
  downloadUrl: null,
  derivatives: row.derivatives,
  width: row.width,
  height: row.height,
  pageCount: row.page_count,
  threatName: row.threat_name,
})

// A step that finds its input gone may have lost a race with a concurrent finalize that moved the row on.
const movedOn = async (db: Db, row: UploadRow) => (await findUpload(db, row.organization_id, row.id))?.status !== row.status

/** Why the stored object is not what the intent allowed (its size, or a type other than declared), or null. */
function mismatch(stored: StoredObject | null, row: UploadRow): string | null {
  if (!stored) return 'No file has been uploaded for this upload yet'
  if (stored.size !== row.declared_size) return `The uploaded file has ${stored.size} bytes, not the declared ${row.declared_size}`
  // Only S3 keeps a type, and its policy admits the declared one alone: another was written around the policy.
  if (stored.contentType !== null && stored.contentType !== row.mime) {
    return `The uploaded file has type ${stored.contentType}, not the declared ${row.mime}`
  }
  return null
}

async function receive(db: Db, storage: Storage, row: UploadRow): Promise<void> {
  const stored = await storage.stat(row.storage_key)
  const problem = mismatch(stored, row)
  if (problem) {
    if (await movedOn(db, row)) return
    throw conflict(problem)
  }
  await markUploaded(db, row.organization_id, row.id, stored!.size)
}

async function copyIncoming(db: Db, storage: Storage, row: UploadRow, key: string): Promise<boolean> {
  try {
    await storage.copy(row.storage_key, key)
    return true
  } catch (error) {
    if (await movedOn(db, row)) return false
    throw error
  }
}

/** Sniffs, hashes and measures a copy of the content: uploaded → ready, or rejected with a threat name. */
async function processContent(db: Db, actor: Actor, storage: Storage, row: UploadRow, metrics: Metrics): Promise<void> {
  const key = contentKey(row.organization_id, row.id)
  if (!(await copyIncoming(db, storage, row, key))) return
  let recorded = false
  try {
    const found = await inspect(() => storage.read(key), row.mime)
    const result = {
      status: found.threatName ? 'rejected' : 'ready',
      storage_key: key,
      size_bytes: found.size,
      sha256: found.sha256,
      width: found.width,
      height: found.height,
      page_count: found.pageCount,
      threat_name: found.threatName,
    } as const
    recorded = (await markProcessed(db, actor, row.id, result)) !== undefined
    // Counted by the call that moved the row, so a replay or a lost race does not count it twice.
    if (recorded) metrics.uploadsProcessed.inc({ outcome: result.status })
  } finally {
    // The checked copy replaces `incoming`; a call that failed or lost the race drops its copy.
    await storage.remove(recorded ? row.storage_key : key)
  }
}

/**
 * pending → uploaded → ready | rejected. Each step only moves a row that is still in the state it
 * starts from, so a replay (or a concurrent call) finds the work done and answers with the same result.
 */
export async function finalizeUpload(db: Db, actor: Actor, storage: Storage, metrics: Metrics, row: UploadRow): Promise<UploadRow> {
  if (row.status === 'pending') await receive(db, storage, row)
  const current = (await findUpload(db, row.organization_id, row.id))!
  if (current.status !== 'uploaded') return current
  await processContent(db, actor, storage, current, metrics)
  return (await findUpload(db, row.organization_id, row.id))!
}
