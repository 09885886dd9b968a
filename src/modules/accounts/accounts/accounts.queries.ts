import { sql } from 'kysely'
import type { Db } from '../../../db/database.js'
import type { AccountLinkPurpose, Role, UserState } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import { isoSql } from '../../../lib/dates.js'
import { type EventType, eventsInsert } from '../../../lib/events.js'
import { uuidv7s } from '../../../lib/ids.js'

/** The user a link is issued for, locked so two issues for one user queue; with what the e-mail needs. */
export function lockLinkUser(db: Db, orgId: string, userId: string) {
  return db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .select(['users.id', 'users.email', 'users.first_name', 'users.state', 'organizations.name as organization_name'])
    .where('users.organization_id', '=', orgId)
    .where('users.id', '=', userId)
    .forUpdate('users')
    .executeTakeFirst()
}

/**
 * A new link of `purpose` for the user, revoking the user's earlier unused ones of that purpose, and
 * its `event` (`data.expiresAt`) in the same statement; its expiry.
 */
export async function insertLink(
  db: Db,
  actor: Actor,
  event: EventType,
  link: { id: string; userId: string; purpose: AccountLinkPurpose; hash: string; ttlHours: number },
): Promise<Date> {
  const { expires_at } = await db
    .with('revoked', (qc) =>
      qc
        .updateTable('account_links')
        .set({ revoked_at: sql`clock_timestamp()` })
        .where('user_id', '=', link.userId)
        .where('purpose', '=', link.purpose)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null),
    )
    .with('a', (qc) =>
      qc
        .insertInto('account_links')
        .values({
          id: link.id,
          organization_id: actor.orgId,
          user_id: link.userId,
          purpose: link.purpose,
          token_hash: link.hash,
          expires_at: sql<Date>`date_trunc('milliseconds', clock_timestamp() + make_interval(hours => ${link.ttlHours}))`,
        })
        .returning(['user_id', 'expires_at']),
    )
    .with('audit', (qc) =>
      eventsInsert(
        qc,
        actor,
        event,
        'user',
        sql`select a.user_id as target_id, jsonb_build_object('expiresAt', ${isoSql(sql.ref('a.expires_at'))}) as data from a`,
        uuidv7s(1),
      ),
    )
    .selectFrom('a')
    .select('a.expires_at')
    .executeTakeFirstOrThrow()
  return expires_at
}

/** The states a link's user may be in for it to work: an invitation only lets a pending user in. */
const usableFrom: Record<AccountLinkPurpose, UserState[]> = { invitation: ['pending'], password_reset: ['pending', 'active'] }

/** Whether the link is unused, unexpired, unrevoked and its user may still use it (read before hashing the password). */
export async function linkIsLive(db: Db, purpose: AccountLinkPurpose, hash: string): Promise<boolean> {
  const row = await db
    .selectFrom('account_links as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select('l.id')
    .where('l.token_hash', '=', hash)
    .where('l.purpose', '=', purpose)
    .where('l.used_at', 'is', null)
    .where('l.revoked_at', 'is', null)
    .where('l.expires_at', '>', sql<Date>`clock_timestamp()`)
    .where('u.state', 'in', usableFrom[purpose])
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Spends the link and sets its user's password in one statement (a pending user becomes active), with
 * its `auth.password_set` event, the user acting; the user as the new tokens need them, or undefined
 * when the link no longer works.
 */
export function useLink(db: Db, purpose: AccountLinkPurpose, hash: string, passwordHash: string, requestId: string) {
  const user = {
    orgId: sql<string>`(select organization_id from u)`,
    actor: { userId: sql<string>`(select id from u)`, role: sql<Role>`(select role from u)` },
    requestId,
  }
  return db
    .with('link', (qc) =>
      qc
        .updateTable('account_links')
        .set({ used_at: sql`clock_timestamp()` })
        .where('token_hash', '=', hash)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', sql<Date>`clock_timestamp()`)
        .where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('state', 'in', usableFrom[purpose]))
        .returning('user_id'),
    )
    .with('u', (qc) =>
      qc
        .updateTable('users')
        .from(['link', 'organizations'])
        .set({
          password_hash: passwordHash,
          state: sql<UserState>`case when users.state = 'pending' then 'active' else users.state end`,
          updated_at: new Date(),
        })
        .whereRef('users.id', '=', 'link.user_id')
        .whereRef('organizations.id', '=', 'users.organization_id')
        .returning(['users.id', 'users.organization_id', 'users.role', 'organizations.products']),
    )
    .with('audit', (qc) => eventsInsert(qc, user, 'auth.password_set', 'user', passwordSetRows(purpose, 'u'), uuidv7s(1)))
    .selectFrom('u')
    .selectAll()
    .executeTakeFirst()
}

/** After a reset: the user's other links stop working, and so do access tokens of `instant`'s second and earlier. */
export async function endEarlierCredentials(db: Db, userId: string, instant: Date): Promise<void> {
  await db
    .with('links', (qc) =>
      qc
        .updateTable('account_links')
        .set({ revoked_at: sql`clock_timestamp()` })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null),
    )
    .updateTable('users')
    .set({ tokens_valid_after: sql`greatest(tokens_valid_after, ${instant})` } as never)
    .where('id', '=', userId)
    .execute()
}

export function passwordHashOf(db: Db, userId: string) {
  return db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst()
}

/** The caller's new password, and its `auth.password_set` event (`via: 'change'`) in the same statement. */
export async function setPassword(db: Db, actor: Actor, passwordHash: string): Promise<void> {
  await db
    .with('a', (qc) =>
      qc.updateTable('users').set({ password_hash: passwordHash, updated_at: new Date() }).where('id', '=', actor.userId).returning('id'),
    )
    .with('audit', (qc) => eventsInsert(qc, actor, 'auth.password_set', 'user', passwordSetRows('change', 'a'), uuidv7s(1)))
    .selectFrom('a')
    .select('a.id')
    .execute()
}

/** The `auth.password_set` event of each user in `from`, set `via` a link or a change. */
const passwordSetRows = (via: AccountLinkPurpose | 'change', from: string) =>
  sql<{ target_id: string; data: unknown }>`select id as target_id, jsonb_build_object('via', ${via}::text) as data from ${sql.table(from)}`
