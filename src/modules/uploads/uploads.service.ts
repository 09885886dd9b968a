import { Readable } from 'node:stream'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../db/database.js'
import { iso } from '../../lib/dates.js'
import { conflict } from '../../lib/errors.js'
import type { Storage } from '../../lib/storage.js'
import { inspect } from './uploads.inspect.js'
import { findUpload, markProcessed, markUploaded, type UploadRow } from './uploads.queries.js'
import type { Upload } from './uploads.schemas.js'

// The presigned POST writes `incoming`; processing stores the bytes it checked under a key of its own,
// so nothing written to `incoming` later (a replayed POST) can replace content that was found clean.
export const incomingKey = (orgId: string, uploadId: string) => `${orgId}/${uploadId}/incoming`
const contentKey = (orgId: string, uploadId: string) => `${orgId}/${uploadId}/${uuidv7()}`

/** The wire shape; a ready upload carries a download link valid until `linkExpiresAt`. */
export function toUpload(row: UploadRow, storage: Storage, linkExpiresAt: Date): Upload {
  const download = { contentType: row.mime, filename: row.original_filename, expiresAt: linkExpiresAt }
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    originalFilename: row.original_filename,
    sizeBytes: row.size_bytes ?? row.declared_size,
    createdAt: iso(row.created_at),
    downloadUrl: row.status === 'ready' ? storage.presignGet(row.storage_key, download) : null,
    derivatives: row.derivatives,
    width: row.width,
    height: row.height,
    pageCount: row.page_count,
    threatName: row.threat_name,
  }
}

// A step that finds its input gone may have lost a race with a concurrent finalize that moved the row on.
const movedOn = async (db: Db, row: UploadRow) => (await findUpload(db, row.organization_id, row.id))?.status !== row.status

async function receive(db: Db, storage: Storage, row: UploadRow): Promise<void> {
  const size = await storage.size(row.storage_key)
  if (size !== row.declared_size) {
    if (await movedOn(db, row)) return
    throw conflict(
      size === null
        ? 'No file has been uploaded for this upload yet'
        : `The uploaded file has ${size} bytes, not the declared ${row.declared_size}`,
    )
  }
  await markUploaded(db, row.organization_id, row.id, size)
}

async function readContent(db: Db, storage: Storage, row: UploadRow): Promise<Buffer | null> {
  try {
    return Buffer.concat(await storage.read(row.storage_key).toArray())
  } catch (error) {
    if (await movedOn(db, row)) return null
    throw error
  }
}

/** Sniffs, hashes and measures the content: uploaded → ready, or rejected with a threat name. */
async function processContent(db: Db, storage: Storage, row: UploadRow): Promise<void> {
  const content = await readContent(db, storage, row)
  if (!content) return
  const found = await inspect(content, row.mime)
  const key = contentKey(row.organization_id, row.id)
  await storage.put(key, Readable.from([content]))
  const recorded = await markProcessed(db, row.organization_id, row.id, {
    status: found.threatName ? 'rejected' : 'ready',
    storage_key: key,
    size_bytes: content.length,
    sha256: found.sha256,
    width: found.width,
    height: found.height,
    page_count: found.pageCount,
    threat_name: found.threatName,
  })
  await storage.remove(recorded ? row.storage_key : key)
}

/**
 * pending → uploaded → ready | rejected. Each step only moves a row that is still in the state it
 * starts from, so a replay (or a concurrent call) finds the work done and answers with the same result.
 */
export async function finalizeUpload(db: Db, storage: Storage, row: UploadRow): Promise<UploadRow> {
  if (row.status === 'pending') await receive(db, storage, row)
  const current = (await findUpload(db, row.organization_id, row.id))!
  if (current.status !== 'uploaded') return current
  await processContent(db, storage, current)
  return (await findUpload(db, row.organization_id, row.id))!
}
