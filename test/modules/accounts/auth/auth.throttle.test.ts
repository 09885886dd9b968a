import { randomBytes, randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../app.js'
import { createOrg, PASSWORD, type TestOrg } from '../../../factories.js'

// Addresses are random per run: the failures of earlier runs stay in a shared PostgreSQL for a window.
const subnet = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`
let hosts = 0
const newAddress = () => `${subnet}::${(++hosts).toString(16)}`
const proxy = newAddress()

let defaults: TestApp
let small: TestApp
let org: TestOrg
let smallOrg: TestOrg
beforeAll(async () => {
  defaults = await buildTestApp()
  // Small limits, and one trusted proxy.
  small = await buildTestApp({
    LOGIN_MAX_FAILURES_PER_EMAIL: '3',
    LOGIN_MAX_FAILURES_PER_ADDRESS: '5',
    LOGIN_MAX_FAILURES_PER_EMAIL_TOTAL: '8',
    TRUST_PROXY: `${proxy}, 192.0.2.0/24`,
  })
  org = await createOrg(defaults.app, defaults.database.db)
  smallOrg = await createOrg(small.app, small.database.db)
})
afterAll(async () => {
  await defaults.app.close()
  await small.app.close()
})

interface Attempt {
  email: string
  password?: string
  from: string
  forwardedFor?: string
}

async function logIn(t: TestApp, { email, password = 'wrong password', from, forwardedFor }: Attempt) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/token',
    remoteAddress: from,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    payload: { email, password },
  })
  return { status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'] }
}

const statuses = (replies: { status: number }[]) => replies.map((r) => r.status)
const times = <T>(n: number, status: T) => Array.from({ length: n }, () => status)
const throttled = { status: 429, body: { detail: 'Too many failed login attempts, try again later' }, retryAfter: expect.any(String) }

async function failuresRecorded(t: TestApp, where: { email?: string; address?: string }): Promise<number> {
  let query = t.database.db.selectFrom('login_failures').select((eb) => eb.fn.countAll<number>().as('n'))
  if (where.email) query = query.where('email_lower', '=', where.email.toLowerCase())
  if (where.address) query = query.where('address', '=', where.address)
  return Number((await query.executeTakeFirstOrThrow()).n)
}

describe('login throttling with the default limits', () => {
  it('ignores X-Forwarded-For without TRUST_PROXY: 60 guesses under rotating values get 429 after 10', async () => {
    const user = await org.addUser('crew')
    const from = newAddress()
    const replies = []
    for (let i = 0; i < 60; i++) replies.push(await logIn(defaults, { email: user.email, from, forwardedFor: `198.51.100.${i}` }))
    expect(statuses(replies)).toEqual([...times(10, 401), ...times(50, 429)])
    expect(replies[0].body).toEqual({ detail: 'Incorrect email or password' })
    for (const reply of replies.slice(10)) {
      expect(reply).toEqual(throttled)
      expect(Number(reply.retryAfter)).toBeGreaterThan(600)
      expect(Number(reply.retryAfter)).toBeLessThanOrEqual(900)
    }
    // The right password is refused too while the pair is throttled.
    expect(await logIn(defaults, { email: user.email, password: PASSWORD, from })).toEqual(throttled)
    expect(await failuresRecorded(defaults, { email: user.email })).toBe(10)
    expect(await failuresRecorded(defaults, { address: from })).toBe(10)
  })

  it("never lets a stranger lock the owner out: the owner's address still logs in, until the window passes for the stranger", async () => {
    const owner = await org.addUser('office_employee')
    const stranger = newAddress()
    for (let i = 0; i < 10; i++) expect((await logIn(defaults, { email: owner.email, from: stranger })).status).toBe(401)
    expect(await logIn(defaults, { email: owner.email, password: PASSWORD, from: stranger })).toEqual(throttled)

    const home = newAddress()
    expect((await logIn(defaults, { email: owner.email, password: PASSWORD, from: home })).status).toBe(200)
    // The stranger's address is only throttled for that e-mail.
    expect((await logIn(defaults, { email: org.officeAdmin.email, password: PASSWORD, from: stranger })).status).toBe(200)
    // Successful logins leave no failure behind.
    expect(await failuresRecorded(defaults, { address: home })).toBe(0)

    await sql`update login_failures set created_at = created_at - interval '901 seconds' where address = ${stranger}`.execute(
      defaults.database.db,
    )
    expect((await logIn(defaults, { email: owner.email, password: PASSWORD, from: stranger })).status).toBe(200)
  })

  it('checks no more passwords than the limit when 80 wrong guesses arrive at once', async () => {
    const user = await org.addUser('crew')
    const from = newAddress()
    const replies = await Promise.all(Array.from({ length: 80 }, () => logIn(defaults, { email: user.email, from })))
    expect({ 401: replies.filter((r) => r.status === 401).length, 429: replies.filter((r) => r.status === 429).length }).toEqual({
      401: 10,
      429: 70,
    })
    expect(await failuresRecorded(defaults, { email: user.email })).toBe(10)
  })
})

describe('login throttling with small limits (3 per pair, 5 per address, 8 per e-mail) and a trusted proxy', () => {
  it('throttles an address after its limit, for every e-mail', async () => {
    const from = newAddress()
    for (let i = 0; i < 5; i++) expect((await logIn(small, { email: `${randomUUID()}@example.test`, from })).status).toBe(401)
    expect(await logIn(small, { email: smallOrg.crew.email, password: PASSWORD, from })).toEqual(throttled)
    expect((await logIn(small, { email: smallOrg.crew.email, password: PASSWORD, from: newAddress() })).status).toBe(200)
  })

  it('stops a distributed guess at the per-e-mail ceiling across all addresses', async () => {
    const user = await smallOrg.addUser('crew')
    // Two failures from each of four addresses: no pair and no address reaches its own limit.
    for (let i = 0; i < 4; i++) {
      const from = newAddress()
      for (let j = 0; j < 2; j++) expect((await logIn(small, { email: user.email, from })).status).toBe(401)
    }
    const fresh = await logIn(small, { email: user.email, password: PASSWORD, from: newAddress() })
    expect(fresh).toEqual(throttled)
    expect(Number(fresh.retryAfter)).toBeGreaterThan(600)
    expect(await failuresRecorded(small, { email: user.email })).toBe(8)
  })

  it('counts concurrent guesses at many e-mails from one address exactly', async () => {
    const from = newAddress()
    const burst = await Promise.all(Array.from({ length: 20 }, () => logIn(small, { email: `${randomUUID()}@example.test`, from })))
    expect(statuses(burst).sort()).toEqual([...times(5, 401), ...times(15, 429)])
    expect(await failuresRecorded(small, { address: from })).toBe(5)
  })

  it('believes X-Forwarded-For from a trusted proxy: each forwarded client has its own counters', async () => {
    const user = await smallOrg.addUser('crew')
    for (let i = 0; i < 6; i++) {
      expect((await logIn(small, { email: user.email, from: proxy, forwardedFor: newAddress() })).status).toBe(401)
    }
    const other = await smallOrg.addUser('crew')
    const client = newAddress()
    for (let i = 0; i < 3; i++) expect((await logIn(small, { email: other.email, from: proxy, forwardedFor: client })).status).toBe(401)
    expect(await logIn(small, { email: other.email, password: PASSWORD, from: proxy, forwardedFor: client })).toEqual(throttled)
    expect((await logIn(small, { email: other.email, password: PASSWORD, from: proxy, forwardedFor: newAddress() })).status).toBe(200)
    expect(await failuresRecorded(small, { address: client })).toBe(3)
    expect(await failuresRecorded(small, { address: proxy })).toBe(0)
  })

  it('takes the first untrusted hop from the right: what a client writes left of it is not believed', async () => {
    const user = await smallOrg.addUser('crew')
    const [spoofed, client] = [newAddress(), newAddress()]
    // 192.0.2.7 is a trusted proxy (192.0.2.0/24) that received the request from `client`.
    const forwardedFor = () => `${newAddress()}, ${spoofed}, ${client}, 192.0.2.7`
    const replies = []
    for (let i = 0; i < 4; i++) replies.push(await logIn(small, { email: user.email, from: proxy, forwardedFor: forwardedFor() }))
    expect(statuses(replies)).toEqual([401, 401, 401, 429])
    expect(await failuresRecorded(small, { address: client })).toBe(3)
    expect(await failuresRecorded(small, { address: spoofed })).toBe(0)
  })

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const user = await smallOrg.addUser('crew')
    const direct = newAddress()
    const replies = []
    for (let i = 0; i < 5; i++) replies.push(await logIn(small, { email: user.email, from: direct, forwardedFor: newAddress() }))
    expect(statuses(replies)).toEqual([401, 401, 401, 429, 429])
    expect(await failuresRecorded(small, { address: direct })).toBe(3)
  })

  it('ignores a forwarded value that is not an IP address: the proxy stands for the client', async () => {
    const user = await smallOrg.addUser('crew')
    const replies = []
    for (const junk of ['not-an-ip', 'unknown', '999.1.1.1', '"><script>']) {
      replies.push(await logIn(small, { email: user.email, from: proxy, forwardedFor: junk }))
    }
    expect(statuses(replies)).toEqual([401, 401, 401, 429])
    expect(await failuresRecorded(small, { email: user.email, address: proxy })).toBe(3)
  })
})
