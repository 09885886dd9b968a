import type { Selectable } from 'kysely'
import type { Db } from '../db/database.js'
import type { DB } from '../db/schema.js'

type OrgTable = 'users' | 'ships' | 'courses' | 'curriculums'

/** A row of the organization as it is before a change, locked until the transaction ends (its `before` for the event). */
export function lockOrgRow<T extends OrgTable>(db: Db, table: T, orgId: string, id: string): Promise<Selectable<DB[T]> | undefined> {
  return db
    .selectFrom(table as OrgTable)
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst() as Promise<Selectable<DB[T]> | undefined>
}
