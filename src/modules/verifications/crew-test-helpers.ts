import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../../db/database.js'
import type { UploadStatus } from '../../db/schema.js'

// Fixtures for the crew record tests: rows the tests need but whose own APIs belong to other modules.

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** An upload row as the upload subsystem leaves it, for records to reference. */
export async function insertTestUpload(db: Db, orgId: string, userId: string, status: UploadStatus = 'ready'): Promise<string> {
  const id = uuidv7()
  await db
    .insertInto('uploads')
    .values({
      id,
      organization_id: orgId,
      user_id: userId,
      kind: 'document',
      mime: 'application/pdf',
      declared_size: 1000,
      original_filename: 'scan.pdf',
      storage_key: `test/${id}`,
      status,
    })
    .execute()
  return id
}

/** An item's verification history, oldest move first. */
export function historyOf(db: Db, targetId: string) {
  return db
    .selectFrom('verification_events')
    .select(['target_type', 'from_status', 'to_status', 'action', 'actor_user_id', 'reason'])
    .where('target_id', '=', targetId)
    .orderBy('id')
    .execute()
}

export function verificationRow(db: Db, targetId: string) {
  return db.selectFrom('verifications').selectAll().where('target_id', '=', targetId).executeTakeFirst()
}
