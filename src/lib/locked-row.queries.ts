import type { Selectable } from 'kysely'
import type { Db } from '../db/database.js'
import type { DB } from '../db/schema.js'

type OrgTable = 'courses' | 'curriculums'

/**
 * A row of the organization, locked until the transaction ends: the writes that take two statements
 * lock first, so that their second statement's snapshot sees what committed while they waited.
 */
export function lockOrgRow<T extends OrgTable>(db: Db, table: T, orgId: string, id: string): Promise<Selectable<DB[T]> | undefined> {
  return db
    .selectFrom(table as OrgTable)
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst() as Promise<Selectable<DB[T]> | undefined>
}
