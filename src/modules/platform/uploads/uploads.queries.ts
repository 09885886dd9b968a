import { type Expression, type QueryCreator, type Selectable, sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB, UploadsTable } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { isoSql } from '../../../lib/dates.js'
import { type EventType, typedEventsInsert, wireJson } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'

export type UploadRow = Selectable<UploadsTable>

/**
 * The upload a record may reference: the organization's, its content arrived, and the owner's when `ownerId` is set;
 * its id and owner are values, or SQL over the statement's rows (a create of several).
 */
export const referenceableUpload = (
  qc: Pick<QueryCreator<DB>, 'selectFrom'>,
  orgId: string,
  upload: { id: string | Expression<string>; ownerId?: string | Expression<string> },
) =>
  qc
    .selectFrom('uploads')
    .select(['uploads.id', 'uploads.user_id'])
    .where('uploads.organization_id', '=', orgId)
    .where('uploads.id', '=', upload.id)
    .where('uploads.status', 'in', ['ready', 'uploaded'])
    .$if(upload.ownerId !== undefined, (qb) => qb.where('uploads.user_id', '=', upload.ownerId!))

export interface NewUpload {
  id: string
  userId: string
  kind: string
  mime: string
  size: number
  filename: string
  storageKey: string
  /** A resumable (tus) upload: when its unfinished transfer expires. */
  resumableUntil?: Date
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
      resumable_until: upload.resumableUntil ?? null,
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
/** An upload in its wire shape as SQL over `alias`, `downloadUrl` null: what an event carries (a signed link is a credential). */
const uploadWire = (alias: string) => ({
  id: sql.ref(`${alias}.id`),
  status: sql.ref(`${alias}.status`),
  kind: sql.ref(`${alias}.kind`),
  originalFilename: sql.ref(`${alias}.original_filename`),
  sizeBytes: sql`coalesce(${sql.ref(`${alias}.size_bytes`)}, ${sql.ref(`${alias}.declared_size`)})`,
  createdAt: isoSql(sql.ref(`${alias}.created_at`)),
  downloadUrl: sql`null::text`,
  derivatives: sql.ref(`${alias}.derivatives`),
  width: sql.ref(`${alias}.width`),
  height: sql.ref(`${alias}.height`),
  pageCount: sql.ref(`${alias}.page_count`),
  threatName: sql.ref(`${alias}.threat_name`),
})

/** Records the check's result on an upload still `uploaded`, with its `upload.ready` or `upload.rejected` event in the same statement. */
export function markProcessed(db: Db, actor: Actor, uploadId: string, result: Processed): Promise<UploadRow | undefined> {
  return db
    .with('a', (qc) =>
      qc
        .updateTable('uploads')
        .set({ ...result, updated_at: new Date() })
        .where('organization_id', '=', actor.orgId)
        .where('id', '=', uploadId)
        .where('status', '=', 'uploaded')
        .returningAll(),
    )
    .with('audit', (qc) =>
      typedEventsInsert(
        qc,
        actor,
        'upload',
        sql<{
          type: EventType
          target_id: string
          data: unknown
        }>`select 'upload.' || a.status as type, a.id as target_id, ${wireJson(uploadWire('a'))} as data from a`,
        uuidv7s(1),
      ),
    )
    .selectFrom('a')
    .selectAll()
    .executeTakeFirst()
}

/** An organization's resumable uploads still unfinished past their expiry, `limit` at a time after `after` (by id). */
export function expiredResumableUploads(db: Db, orgId: string, after: string, limit: number) {
  return db
    .selectFrom('uploads')
    .select(['id', 'storage_key'])
    .where('organization_id', '=', orgId)
    .where('status', '=', 'pending')
    .where('resumable_until', '<', sql<Date>`now()`)
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute()
}

/** Deletes those of `ids` that are still unfinished resumable uploads past their expiry; how many. */
export async function deleteExpiredResumableUploads(db: Db, orgId: string, ids: string[]): Promise<number> {
  const result = await db
    .deleteFrom('uploads')
    .where('organization_id', '=', orgId)
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .where('resumable_until', '<', sql<Date>`now()`)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
