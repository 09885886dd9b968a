import { type QueryCreator, sql, type Transaction } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { DB } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { isoSql } from '../../../lib/dates.js'
import { type EventType, eventsInsert, objectRows } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'
import { newestFirstPage } from '../../../lib/pagination.js'
import { toCredential } from './credentials.schemas.js'

type Executor = Db | Transaction<DB>

const COLUMNS = ['id', 'name', 'key', 'scopes', 'created_at'] as const

/** A credential in its wire shape as SQL over `alias` (never its secret), for the events the statements below write. */
const credentialWire = (alias: string) => ({
  id: sql.ref(`${alias}.id`),
  name: sql.ref(`${alias}.name`),
  key: sql.ref(`${alias}.key`),
  scopes: sql.ref(`${alias}.scopes`),
  createdAt: isoSql(sql.ref(`${alias}.created_at`)),
})

/** The event of the credential the statement wrote into `a`. */
const recorded = (actor: Actor, type: EventType) => (qc: QueryCreator<any>) =>
  eventsInsert(qc, actor, type, 'xapi_credential', objectRows(credentialWire('a'), 'a'), uuidv7s(1))

/** A credential without an event, made by the scripts that drive the LRS (conformance suite, fuzzing). */
export function insertCredential(
  db: Executor,
  row: { id: string; organization_id: string; name: string; key: string; secret_hash: string; scopes: string[]; created_by: string | null },
) {
  return db.insertInto('xapi_credentials').values(row).returning(COLUMNS).executeTakeFirstOrThrow()
}

/** Creates the credential and its `xapi_credential.created` event in one statement. */
export function createCredential(
  db: Db,
  actor: Actor,
  row: { id: string; name: string; key: string; secret_hash: string; scopes: string[] },
) {
  return db
    .with('a', (qc) =>
      qc
        .insertInto('xapi_credentials')
        .values({ ...row, organization_id: actor.orgId, created_by: actor.userId })
        .returning(COLUMNS),
    )
    .with('audit', recorded(actor, 'xapi_credential.created'))
    .selectFrom('a')
    .selectAll()
    .executeTakeFirstOrThrow()
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

/** Deletes the credential and writes its `xapi_credential.deleted` event in one statement. */
export function deleteCredential(db: Db, actor: Actor, id: string) {
  return db
    .with('a', (qc) => qc.deleteFrom('xapi_credentials').where('organization_id', '=', actor.orgId).where('id', '=', id).returning(COLUMNS))
    .with('audit', recorded(actor, 'xapi_credential.deleted'))
    .selectFrom('a')
    .select('a.id')
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
