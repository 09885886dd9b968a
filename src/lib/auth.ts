import argon2 from 'argon2'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { jwtVerify, SignJWT } from 'jose'
import type { Db } from '../db/database.js'
import type { Product, Role } from '../db/schema.js'
import { type Actor, assertRouteAllowed } from './access.js'
import { unauthorized } from './errors.js'

export interface TokenClaims {
  sub: string
  org: string
  role: Role
  products: Product[]
  iat: number
  exp: number
}

export interface Tokens {
  issue(claims: { sub: string; org: string; role: Role; products: Product[] }): Promise<{ token: string; expiresIn: number }>
  verify(token: string): Promise<TokenClaims>
}

export function createTokens(secret: string, ttlSeconds: number): Tokens {
  const key = new TextEncoder().encode(secret)
  return {
    async issue(claims) {
      const token = await new SignJWT({
        org: claims.org,
        role: claims.role,
        products: claims.products,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key)
      return { token, expiresIn: ttlSeconds }
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
        })
        if (typeof payload.sub !== 'string' || typeof payload.org !== 'string') throw new Error('claims')
        return payload as unknown as TokenClaims
      } catch {
        throw unauthorized('Could not validate credentials')
      }
    },
  }
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

/** Reads the caller from the token and the database, so a suspension or role change applies at once. */
async function loadActor(db: Db, claims: TokenClaims): Promise<Actor> {
  const row = await db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .select(['users.id', 'users.role', 'users.state', 'users.organization_id', 'organizations.products'])
    .where('users.id', '=', claims.sub)
    .executeTakeFirst()
  if (!row || row.state !== 'active' || row.organization_id !== claims.org) {
    throw unauthorized('Could not validate credentials')
  }
  return {
    userId: row.id,
    orgId: row.organization_id,
    role: row.role,
    products: row.products,
  }
}

export function registerAuth(app: FastifyInstance, db: Db, tokens: Tokens): void {
  app.decorateRequest('actor', null as unknown as Actor)
  app.decorateRequest('claims', null as unknown as TokenClaims)
  app.addHook('onRequest', async (request) => {
    const { config, url } = request.routeOptions
    // Only the API needs a token; health checks and the API reference are open.
    if (config.public || !url?.startsWith('/api/')) return
    const claims = await tokens.verify(bearerToken(request))
    request.claims = claims
    request.actor = await loadActor(db, claims)
    assertRouteAllowed(request.actor, url, config.roles)
  })
}

declare module 'fastify' {
  interface FastifyRequest {
    claims: TokenClaims
  }
}
