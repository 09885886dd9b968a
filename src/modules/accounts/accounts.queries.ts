import { sql } from 'kysely'
import type { Db } from '../../db/database.js'
import type { AccountLinkPurpose, UserState } from '../../db/schema.js'

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

/** A new link of `purpose` for the user, revoking the user's earlier unused ones of that purpose; its expiry. */
export async function insertLink(
  db: Db,
  link: { id: string; orgId: string; userId: string; purpose: AccountLinkPurpose; hash: string; ttlHours: number },
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
    .insertInto('account_links')
    .values({
      id: link.id,
      organization_id: link.orgId,
      user_id: link.userId,
      purpose: link.purpose,
      token_hash: link.hash,
      expires_at: sql<Date>`date_trunc('milliseconds', clock_timestamp() + make_interval(hours => ${link.ttlHours}))`,
    })
    .returning('expires_at')
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
 * Spends the link and sets its user's password in one statement (a pending user becomes active);
 * the user as the new tokens need them, or undefined when the link no longer works.
 */
export function useLink(db: Db, purpose: AccountLinkPurpose, hash: string, passwordHash: string) {
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
    .updateTable('users')
    .from(['link', 'organizations'])
    .set({
      password_hash: passwordHash,
      state: sql<UserState>`case when users.state = 'pending' then 'active' else users.state end`,
      updated_at: new Date(),
    })
    .whereRef('users.id', '=', 'link.user_id')
    .whereRef('organizations.id', '=', 'users.organization_id')
    .returning(['users.id', 'users.organization_id', 'users.role', 'organizations.products'])
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

export async function setPassword(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: new Date() }).where('id', '=', userId).execute()
}
