import { sql } from 'kysely'
import type { Db } from '../db/database.js'

/** How long a key and its answer are kept. */
export const KEY_LIFETIME = '24 hours'
/** A claim with no answer after this long belongs to a request whose process died: it may be claimed again. */
export const CLAIM_ABANDONED_AFTER = '10 minutes'

export interface KeyRecord {
  claim: string
  fingerprint: string
  status_code: number | null
  content_type: string | null
  body: string | null
}

/**
 * Claims the key for this request, or reads who holds it, in one statement. The key is ours when the
 * returned `claim` is the one given: a new key, or one expired or abandoned. No row at all means a
 * concurrent request claimed it after this statement's snapshot was taken: it is in progress.
 */
export async function claimKey(db: Db, orgId: string, userId: string, key: string, fingerprint: string, claim: string) {
  const { rows } = await sql<KeyRecord>`
    with claimed as (
      insert into idempotency_keys as k (organization_id, user_id, key, fingerprint, claim)
      values (${orgId}, ${userId}, ${key}, ${fingerprint}, ${claim})
      on conflict (organization_id, user_id, key) do update
        set fingerprint = excluded.fingerprint, claim = excluded.claim, status_code = null,
            content_type = null, body = null, created_at = excluded.created_at
        where k.created_at < now() - ${KEY_LIFETIME}::interval
           or (k.status_code is null and k.created_at < now() - ${CLAIM_ABANDONED_AFTER}::interval)
      returning claim, fingerprint, status_code, content_type, body
    )
    select * from claimed
    union all
    select claim, fingerprint, status_code, content_type, body from idempotency_keys
    where organization_id = ${orgId} and user_id = ${userId} and key = ${key} and not exists (select from claimed)`.execute(db)
  return rows[0]
}

export async function storeAnswer(
  db: Db,
  orgId: string,
  userId: string,
  held: { key: string; claim: string },
  answer: { status: number; contentType: string | null; body: string | null },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: answer.status, content_type: answer.contentType, body: answer.body })
    .where('organization_id', '=', orgId)
    .where('user_id', '=', userId)
    .where('key', '=', held.key)
    .where('claim', '=', held.claim)
    .execute()
}

/** Gives the key up (an answer that is not kept), so a retry runs the request again. */
export async function releaseKey(db: Db, orgId: string, userId: string, held: { key: string; claim: string }): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('organization_id', '=', orgId)
    .where('user_id', '=', userId)
    .where('key', '=', held.key)
    .where('claim', '=', held.claim)
    .execute()
}

export async function deleteExpiredKeys(db: Db): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', sql<Date>`now() - ${KEY_LIFETIME}::interval`).execute()
}
