import { sql } from 'kysely'
import type { Db } from '../db/database.js'
import type { Product, Role } from '../db/schema.js'
import { ACTOR_CHANNEL } from './actor-cache.js'
import { type EventSource, eventsInsert } from './events.js'
import { uuidv7s } from './ids.js'

/** A refresh token as presented: its row, and who it signs in now. */
export interface PresentedRefresh {
  id: string
  family_id: string
  organization_id: string
  user_id: string
  spent: boolean
  /** Revoked, expired, or its user no longer active: refused, but no sign of theft. */
  dead: boolean
  role: Role
  products: Product[]
}

/** A new refresh token of a sign-in (`familyId`), valid `ttlDays` from now. */
export async function insertRefreshToken(
  db: Db,
  token: { id: string; orgId: string; userId: string; familyId: string; hash: string; ttlDays: number },
): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({
      id: token.id,
      organization_id: token.orgId,
      user_id: token.userId,
      family_id: token.familyId,
      token_hash: token.hash,
      expires_at: sql<Date>`clock_timestamp() + make_interval(days => ${token.ttlDays})`,
    })
    .execute()
}

/** The presented token, locked so two uses of it queue and the second finds it spent. */
export async function lockRefreshToken(db: Db, hash: string): Promise<PresentedRefresh | undefined> {
  return db
    .selectFrom('refresh_tokens as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .select([
      'r.id',
      'r.family_id',
      'r.organization_id',
      'r.user_id',
      sql<boolean>`r.spent_at is not null`.as('spent'),
      sql<boolean>`r.revoked_at is not null or r.expires_at <= clock_timestamp() or u.state <> 'active'`.as('dead'),
      'u.role',
      'o.products',
    ])
    .where('r.token_hash', '=', hash)
    .forUpdate('r')
    .executeTakeFirst()
}

/**
 * In the RETURNING of a revocation: every instance drops its cached copy of the user, whose next request
 * finds the sign-in ended (sent at commit; PostgreSQL sends one per user and transaction).
 */
const announceUser = sql<string>`pg_notify(${ACTOR_CHANNEL}, user_id::text)`.as('announced')

export async function spendRefreshToken(db: Db, id: string): Promise<void> {
  await db.updateTable('refresh_tokens').set({ spent_at: sql`clock_timestamp()` }).where('id', '=', id).execute()
}

/**
 * A spent token presented again: every live token of its sign-in is revoked, and when any was, the
 * `auth.refresh_reused` event (no actor: the caller proved no identity) written by the same statement.
 */
export async function revokeReusedFamily(db: Db, source: EventSource, familyId: string, userId: string): Promise<void> {
  await db
    .with('revoked', (qc) =>
      qc
        .updateTable('refresh_tokens')
        .set({ revoked_at: sql`clock_timestamp()` })
        .where('family_id', '=', familyId)
        .where('revoked_at', 'is', null)
        .where('spent_at', 'is', null)
        .returning(['id', announceUser]),
    )
    .with('audit', (qc) =>
      eventsInsert(
        qc,
        source,
        'auth.refresh_reused',
        'user',
        sql`select ${userId}::uuid as target_id, '{}'::jsonb as data where exists (select from revoked)`,
        uuidv7s(1),
      ),
    )
    .selectFrom('revoked')
    .select(sql`count(*)`.as('n'))
    .execute()
}

/** Logout: the live token with this hash is revoked; its user, or undefined when there is none. */
export async function revokeRefreshToken(db: Db, hash: string): Promise<string | undefined> {
  const row = await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: sql`clock_timestamp()` })
    .where('token_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .where('spent_at', 'is', null)
    .where('expires_at', '>', sql<Date>`clock_timestamp()`)
    .returning(['user_id', announceUser])
    .executeTakeFirst()
  return row?.user_id
}

/** Every live refresh token of the user but those of the sign-in `keepFamilyId` (a password change keeps its own). */
export async function revokeUserRefreshTokens(db: Db, userId: string, keepFamilyId?: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: sql`clock_timestamp()` })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('spent_at', 'is', null)
    .$if(keepFamilyId !== undefined, (qb) => qb.where('family_id', '<>', keepFamilyId!))
    .returning(announceUser)
    .execute()
}
