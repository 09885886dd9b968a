import type { Db } from '../../db/database.js'

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
