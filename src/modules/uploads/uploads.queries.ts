import type { Selectable } from 'kysely'
import type { Db } from '../../db/database.js'
import type { UploadsTable } from '../../db/schema.js'

export type UploadRow = Selectable<UploadsTable>

/** An upload that a record may reference: the caller's organization, content received. */
export function findReferenceableUpload(db: Db, orgId: string, uploadId: string) {
  return db
    .selectFrom('uploads')
    .select(['id', 'status', 'user_id'])
    .where('organization_id', '=', orgId)
    .where('id', '=', uploadId)
    .where('status', 'in', ['ready', 'uploaded'])
    .executeTakeFirst()
}

export interface NewUpload {
  id: string
  userId: string
  kind: string
  mime: string
  size: number
  filename: string
  storageKey: string
}

export function insertUpload(db: Db, orgId: string, upload: NewUpload) {
  return db
    .insertInto('uploads')
    .values({
      id: upload.id,
      organization_id: orgId,
      user_id: upload.userId,
      kind: upload.kind,
      mime: upload.mime,
      declared_size: upload.size,
      original_filename: upload.filename,
      storage_key: upload.storageKey,
      status: 'pending',
    })
    .execute()
}

/** One upload of the organization; `onlyUserId` narrows it to one user's own (crew). */
export function findUpload(db: Db, orgId: string, uploadId: string, onlyUserId?: string) {
  let query = db.selectFrom('uploads').selectAll().where('organization_id', '=', orgId).where('id', '=', uploadId)
  if (onlyUserId) query = query.where('user_id', '=', onlyUserId)
  return query.executeTakeFirst()
}

/** The content arrived with the declared size: pending → uploaded. Only the first of concurrent calls changes the row. */
export async function markUploaded(db: Db, orgId: string, uploadId: string, sizeBytes: number): Promise<void> {
  await db
    .updateTable('uploads')
    .set({ status: 'uploaded', size_bytes: sizeBytes, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', uploadId)
    .where('status', '=', 'pending')
    .execute()
}

export interface Processed {
  status: 'ready' | 'rejected'
  storage_key: string
  size_bytes: number
  sha256: string
  width: number | null
  height: number | null
  page_count: number | null
  threat_name: string | null
}

/** The outcome of processing: uploaded → ready or rejected. Undefined when a concurrent call recorded it first. */
export function markProcessed(db: Db, orgId: string, uploadId: string, result: Processed): Promise<UploadRow | undefined> {
  return db
    .updateTable('uploads')
    .set({ ...result, updated_at: new Date() })
    .where('organization_id', '=', orgId)
    .where('id', '=', uploadId)
    .where('status', '=', 'uploaded')
    .returningAll()
    .executeTakeFirst()
}
