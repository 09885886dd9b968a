import { setTimeout } from 'node:timers/promises'
import { v7 as uuidv7 } from 'uuid'
import type { Db } from '../db/database.js'
import type { Product, Role } from '../db/schema.js'
import type { ActorCache } from './actor-cache.js'
import { newOpaqueToken, opaqueTokenHash, type Tokens } from './auth.js'
import { unauthorized } from './errors.js'
import type { TokenResponse } from './sessions.schemas.js'
import { insertRefreshToken, lockRefreshToken, revokeReusedFamily, spendRefreshToken } from './sessions.queries.js'

/** What signing someone in needs (DECISIONS §15). */
export interface SessionDeps {
  db: Db
  tokens: Tokens
  refreshTokenTtlDays: number
  /** Told of a sign-in ended here, so this instance refuses its tokens before the database's announcement arrives. */
  actors: ActorCache
}

/** The user a token pair is for. */
export interface SessionUser {
  id: string
  organization_id: string
  role: Role
  products: Product[]
  /** The user's token cutoff (a suspension or reset), when the caller read it. */
  tokens_valid_after?: Date | null
}

export const invalidRefreshToken = () => unauthorized('Invalid refresh token')

/** An access token and the refresh token that continues the sign-in `familyId` (a new sign-in when absent). */
export async function startSession(deps: SessionDeps, user: SessionUser, familyId: string = uuidv7()): Promise<TokenResponse> {
  // `iat` is whole seconds and every token of the cutoff's second is refused: a sign-in within that second
  // (a restore and a login at once) waits for the next one rather than answer a token that never works.
  const cutoff = user.tokens_valid_after?.getTime()
  if (cutoff !== undefined) {
    const wait = (Math.floor(cutoff / 1000) + 1) * 1000 - Date.now()
    if (wait > 0) await setTimeout(wait)
  }
  const refresh = newOpaqueToken()
  const ids = { orgId: user.organization_id, userId: user.id, familyId }
  await insertRefreshToken(deps.db, { id: uuidv7(), ...ids, hash: refresh.hash, ttlDays: deps.refreshTokenTtlDays })
  const { token, expiresIn } = await deps.tokens.issue({
    sub: user.id,
    org: user.organization_id,
    role: user.role,
    products: user.products,
    sid: familyId,
  })
  return { access_token: token, token_type: 'bearer', expires_in: expiresIn, refresh_token: refresh.token }
}

/**
 * The refresh grant: the presented token is spent and the next pair issued in the same sign-in.
 * A token already spent is a sign it was copied: every live token of its sign-in is revoked (and
 * the revocation kept, though the answer is a 401).
 */
export async function refreshSession(deps: SessionDeps, presented: string, requestId: string): Promise<TokenResponse> {
  const outcome = await deps.db.transaction().execute(async (trx): Promise<TokenResponse | { refused: true; reusedBy?: string }> => {
    const row = await lockRefreshToken(trx, opaqueTokenHash(presented))
    if (!row) return { refused: true }
    if (row.spent) {
      await revokeReusedFamily(trx, { orgId: row.organization_id, actor: null, requestId }, row.family_id, row.user_id)
      return { refused: true, reusedBy: row.user_id }
    }
    if (row.dead) return { refused: true }
    await spendRefreshToken(trx, row.id)
    return startSession({ ...deps, db: trx }, { ...row, id: row.user_id }, row.family_id)
  })
  if ('refused' in outcome) {
    if (outcome.reusedBy) deps.actors.changed(outcome.reusedBy)
    throw invalidRefreshToken()
  }
  return outcome
}
