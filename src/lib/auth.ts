import { createHash, randomBytes } from 'node:crypto'
import argon2 from 'argon2'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { jwtVerify, SignJWT } from 'jose'
import { CompiledQuery } from 'kysely'
import type { Db } from '../db/database.js'
import type { Product, Role } from '../db/schema.js'
import { type Actor, assertRouteAllowed, type StoredActor } from './access.js'
import type { ActorCache, Caller } from './actor-cache.js'
import { unauthorized } from './errors.js'
import { isUuid } from './validation.js'

export interface TokenClaims {
  sub: string
  org: string
  role: Role
  products: Product[]
  /** The sign-in (refresh token family) the token belongs to: revoking it refuses the token. */
  sid: string
  iat: number
  exp: number
}

export interface Tokens {
  issue(claims: { sub: string; org: string; role: Role; products: Product[]; sid: string }): Promise<{ token: string; expiresIn: number }>
  verify(token: string): Promise<TokenClaims>
}

const VERIFIED_TOKENS_KEPT = 10_000

export function createTokens(secret: string, ttlSeconds: number): Tokens {
  // Imported once: handing jose raw bytes would import the key again on every request.
  const key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
  // A signature, once checked, stays valid until the token expires: recent tokens skip the HMAC
  // (WebCrypto runs it on the thread pool, a large share of a simple request's cost).
  const verified = new Map<string, TokenClaims>()
  const remember = (token: string, claims: TokenClaims) => {
    if (verified.size >= VERIFIED_TOKENS_KEPT) verified.clear()
    verified.set(token, claims)
  }
  return {
    async issue(claims) {
      // Whole seconds, as every client of the incumbent parses them; a suspension refuses the whole
      // second it happened in (assertTokenFits).
      const now = Math.floor(Date.now() / 1000)
      const token = await new SignJWT({
        org: claims.org,
        role: claims.role,
        products: claims.products,
        sid: claims.sid,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .sign(await key)
      return { token, expiresIn: ttlSeconds }
    },
    async verify(token) {
      const known = verified.get(token)
      if (known && known.exp * 1000 > Date.now()) return known
      try {
        const { payload } = await jwtVerify(token, await key, { algorithms: ['HS256'], requiredClaims: ['exp', 'iat', 'sub', 'sid'] })
        if (typeof payload.sub !== 'string' || typeof payload.org !== 'string' || !isUuid(String(payload.sid))) throw new Error('claims')
        remember(token, payload as unknown as TokenClaims)
        return payload as unknown as TokenClaims
      } catch {
        throw unauthorized('Could not validate credentials')
      }
    },
  }
}

/** What the database keeps of an opaque token (refresh token, one-time link): 256 random bits need no slow hash. */
export const opaqueTokenHash = (token: string) => createHash('sha256').update(token).digest('hex')

/** A new opaque token and its hash. */
export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, hash: opaqueTokenHash(token) }
}

export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id })

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (!hash) return false
  try {
    return await argon2.verify(hash, password)
  } catch {
    return false
  }
}

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  if (!match) throw unauthorized()
  return match[1]
}

// Runs on every request the cache cannot answer: compiled once rather than rebuilt by the query builder
// each time. A sign-in is ended once any of its refresh tokens was revoked (only a live one ever is).
const ACTOR_QUERY = `select u.id, u.role, u.state, u.organization_id, o.products, u.tokens_valid_after,
    exists (select from refresh_tokens r where r.family_id = $2 and r.revoked_at is not null) as signed_out
  from users u join organizations o on o.id = u.organization_id where u.id = $1`

interface ActorRow {
  id: string
  role: Role
  state: string
  organization_id: string
  products: Product[]
  tokens_valid_after: Date | null
  signed_out: boolean
}

/**
 * Refused: another organization's token for this user, or one issued before the user's last
 * suspension or password reset. `iat` is whole seconds, so every token of that second is refused.
 */
function assertTokenFits(claims: TokenClaims, { actor, tokensValidAfter }: Caller): void {
  const stale = tokensValidAfter !== null && Math.round(claims.iat * 1000) <= tokensValidAfter
  if (actor.orgId !== claims.org || stale) throw unauthorized('Could not validate credentials')
}

/**
 * Reads the caller from the token and the database, so a suspension, a role change or the end of the
 * token's sign-in (DECISIONS §15) applies at once.
 */
async function loadActor(db: Db, actors: ActorCache, claims: TokenClaims): Promise<StoredActor> {
  const cached = actors.get(claims.sub, claims.sid)
  if (cached) {
    assertTokenFits(claims, cached)
    return cached.actor
  }
  const mark = actors.mark()
  const { rows } = await db.executeQuery<ActorRow>(CompiledQuery.raw(ACTOR_QUERY, [claims.sub, claims.sid]))
  const row = rows[0]
  if (row?.state !== 'active' || row.signed_out) throw unauthorized('Could not validate credentials')
  const actor: StoredActor = { userId: row.id, orgId: row.organization_id, role: row.role, products: row.products }
  const caller = { actor, tokensValidAfter: row.tokens_valid_after?.getTime() ?? null }
  assertTokenFits(claims, caller)
  actors.set(caller, claims.sid, mark)
  return actor
}

/** The caller a bearer token names, for routes that authenticate themselves (the LRS also takes Basic credentials). */
export async function actorOfToken(db: Db, tokens: Tokens, actors: ActorCache, token: string): Promise<StoredActor> {
  return loadActor(db, actors, await tokens.verify(token))
}

export function registerAuth(app: FastifyInstance, db: Db, tokens: Tokens, actors: ActorCache): void {
  app.decorateRequest('actor', null as unknown as Actor)
  const authenticate = async (request: FastifyRequest) => {
    const claims = await tokens.verify(bearerToken(request))
    request.actor = { ...(await loadActor(db, actors, claims)), requestId: request.id, sessionId: claims.sid }
    const { config } = request.routeOptions
    assertRouteAllowed(request.actor, config.product, config.roles)
  }
  // Only the API needs a token; health checks and the API reference are open. The routes that need one
  // have the hook as their own, so the others do not run it (profiled: docs/performance.md).
  app.addHook('onRoute', (route) => {
    if (route.config?.public || !route.url?.startsWith('/api/')) return
    route.onRequest = [authenticate, ...(route.onRequest === undefined ? [] : [route.onRequest].flat())]
  })
}
