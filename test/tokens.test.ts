import { SignJWT } from 'jose'
import { sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { describe, expect, it } from 'vitest'
import { client, TEST_SECRET, useTestApp } from './app.js'
import { useOrg } from './factories.js'

const t = useTestApp()
const org = useOrg(t)

const key = new TextEncoder().encode(TEST_SECRET)
const now = () => Date.now() / 1000

/** A token signed with the right secret, with exactly the registered claims given (and a sign-in, unless `sid` says otherwise). */
function forge(claims: { sub?: string; iat?: number; exp?: number; sid?: string }, orgId = org.id) {
  return new SignJWT({ org: orgId, role: 'admin', products: ['learn', 'crew'], sid: uuidv7(), ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(key)
}
const me = async (token: string) => (await client(t.app, token).get('/api/v1/users/me')).status

describe('tokens', () => {
  it('must carry sub, iat, exp and their sign-in (sid)', async () => {
    const sub = org.admin.id
    const iat = Math.floor(now())
    const exp = iat + 600
    expect(await me(await forge({ sub, iat, exp }))).toBe(200)
    expect(await me(await forge({ sub, iat }))).toBe(401)
    expect(await me(await forge({ sub, exp }))).toBe(401)
    expect(await me(await forge({ iat, exp }))).toBe(401)
    expect(await me(await forge({ sub, iat, exp, sid: undefined }))).toBe(401)
    expect(await me(await forge({ sub, iat, exp, sid: 'not-a-sign-in' }))).toBe(401)
    const refused = await client(t.app, await forge({ sub, iat })).get('/api/v1/users/me')
    expect(refused.body).toEqual({ detail: 'Could not validate credentials' })
    expect(refused.headers['www-authenticate']).toBe('Bearer')
  })

  it('issued by the service carry iat and exp in whole seconds, exp the configured lifetime later', async () => {
    const [, payload] = org.crew.token.split('.')
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
    expect(claims.sub).toBe(org.crew.id)
    expect(Number.isInteger(claims.iat) && Number.isInteger(claims.exp)).toBe(true)
    expect(claims.exp - claims.iat).toBe(3600)
    expect(Math.abs(claims.iat - now())).toBeLessThan(120)
  })

  it('suspending a user stamps the instant before which their tokens are refused, however it is done', async () => {
    const user = await org.addUser('crew')
    await sql`update users set state = 'suspended' where id = ${user.id}`.execute(t.database.db)
    const { tokens_valid_after } = await t.database.db
      .selectFrom('users')
      .select('tokens_valid_after')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(Math.abs(tokens_valid_after!.getTime() - Date.now())).toBeLessThan(60_000)
    await sql`update users set state = 'active' where id = ${user.id}`.execute(t.database.db)
    const after = await t.database.db.selectFrom('users').select('tokens_valid_after').where('id', '=', user.id).executeTakeFirstOrThrow()
    expect(after.tokens_valid_after).toEqual(tokens_valid_after)
  })

  it('refuses every token of the second of the suspension and earlier, and accepts those of later seconds', async () => {
    const user = await org.addUser('office_admin')
    // 500 ms into a whole second: tokens carry whole seconds, so the second's own tokens cannot tell before from after.
    const second = Math.floor(now())
    await sql`update users set tokens_valid_after = ${new Date(second * 1000 + 500)} where id = ${user.id}`.execute(t.database.db)
    const exp = second + 600
    const tokens = await Promise.all([second - 1, second, second + 1].map((iat) => forge({ sub: user.id, iat, exp })))
    expect([await me(tokens[0]), await me(tokens[1]), await me(tokens[2])]).toEqual([401, 401, 200])
  })
})
