import type { Transaction } from 'kysely'
import type { Db } from '../../db/database.js'
import type { DB } from '../../db/schema.js'
import { newestFirstPage } from '../../lib/pagination.js'
import { toCredential } from './credentials.schemas.js'

type Executor = Db | Transaction<DB>

export function insertCredential(
  db: Executor,
  row: { id: string; organization_id: string; name: string; key: string; secret_hash: string; scopes: string[]; created_by: string | null },
) {
  return db.insertInto('xapi_credentials').values(row).returning(['id', 'name', 'key', 'scopes', 'created_at']).executeTakeFirstOrThrow()
}

/** Newest first, cursor-paged; the secret's hash never leaves the database. */
export function listCredentials(db: Db, orgId: string, query: { limit: number; cursor?: string; include_count: boolean }) {
  const filtered = db.selectFrom('xapi_credentials').where('organization_id', '=', orgId)
  return newestFirstPage(
    filtered,
    (qb) => qb.select(['id', 'name', 'key', 'scopes', 'created_at']),
    'xapi_credentials',
    query,
    toCredential,
  )
}

export function deleteCredential(db: Executor, orgId: string, id: string) {
  return db
    .deleteFrom('xapi_credentials')
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning(['id', 'name', 'key', 'scopes', 'created_at'])
    .executeTakeFirst()
}

/** Read on every xAPI request: a deleted credential is refused at once. */
export function findCredentialByKey(db: Executor, key: string) {
  return db
    .selectFrom('xapi_credentials')
    .select(['id', 'organization_id', 'name', 'key', 'secret_hash', 'scopes'])
    .where('key', '=', key)
    .executeTakeFirst()
}
