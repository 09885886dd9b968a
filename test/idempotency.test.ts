import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { deleteExpiredKeys } from '../src/lib/idempotency.queries.js'
import { client, useTestApp } from './app.js'
import { createOrg, nextImo, PASSWORD, useOrg } from './factories.js'

const t = useTestApp()
const org = useOrg(t)

const SHIPS = '/api/v1/shared/ships'
const ship = () => ({ name: `MV ${randomUUID().slice(0, 8)}`, imoNumber: nextImo() })
const withKey = (key: string) => ({ 'idempotency-key': key })

const shipsNamed = (name: string) =>
  t.database.db.selectFrom('ships').select('id').where('organization_id', '=', org.id).where('name', '=', name).execute()
const keyRows = (userId: string, key: string) =>
  t.database.db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', userId).where('key', '=', key).execute()

describe('Idempotency-Key', () => {
  it('replays the first answer, status and body, with Idempotent-Replayed, and creates once', async () => {
    const key = randomUUID()
    const body = ship()
    const first = await org.admin.api.post(SHIPS, body, withKey(key))
    expect(first.status).toBe(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    const again = await org.admin.api.post(SHIPS, body, withKey(key))
    expect(again.status).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.headers['content-type']).toBe(first.headers['content-type'])
    expect(again.text).toBe(first.text)
    expect(await shipsNamed(body.name)).toEqual([{ id: first.body.id }])
    // The same request in another key order and with a trailing slash is the same request.
    const reordered = await org.admin.api.post(`${SHIPS}/`, { imoNumber: body.imoNumber, name: body.name }, withKey(key))
    expect(reordered.status).toBe(201)
    expect(reordered.body).toEqual(first.body)
  })

  it('keeps a 4xx answer of the handler and replays it', async () => {
    const body = ship()
    expect((await org.admin.api.post(SHIPS, body)).status).toBe(201)
    const key = randomUUID()
    const first = await org.admin.api.post(SHIPS, body, withKey(key))
    expect(first.status).toBe(409)
    const again = await org.admin.api.post(SHIPS, body, withKey(key))
    expect(again.status).toBe(409)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.body).toEqual(first.body)
    expect((await keyRows(org.admin.id, key))[0]).toMatchObject({ status_code: 409, body: first.text })
  })

  it('refuses the same key with another body or another path: 422 at the header', async () => {
    const key = randomUUID()
    const body = ship()
    expect((await org.admin.api.post(SHIPS, body, withKey(key))).status).toBe(201)
    const reused = await org.admin.api.post(SHIPS, { ...body, name: 'MV Other' }, withKey(key))
    expect(reused.status).toBe(422)
    expect(reused.body).toEqual({
      detail: [
        {
          loc: ['header', 'idempotency-key'],
          msg: 'This Idempotency-Key was already used with a different request',
          type: 'idempotency_key_reused',
        },
      ],
    })
    expect(await shipsNamed('MV Other')).toEqual([])
    // A body both routes accept (unknown fields are ignored), sent to a second path.
    const both = { ...ship(), title: 'Bridge team' }
    const otherKey = randomUUID()
    expect((await org.admin.api.post(SHIPS, both, withKey(otherKey))).status).toBe(201)
    const otherPath = await org.admin.api.post('/api/v1/learn/curriculums', both, withKey(otherKey))
    expect(otherPath.status).toBe(422)
    expect(otherPath.body.detail).toEqual(reused.body.detail)
  })

  it('answers 409 while the first request with the key is still running, and never runs it twice', async () => {
    const key = randomUUID()
    const body = ship()
    expect((await org.admin.api.post(SHIPS, body, withKey(key))).status).toBe(201)
    // The state the first request leaves the key in until it has answered: claimed, no answer yet.
    await t.database.db.updateTable('idempotency_keys').set({ status_code: null, body: null }).where('key', '=', key).execute()
    const duplicate = await org.admin.api.post(SHIPS, body, withKey(key))
    expect(duplicate.status).toBe(409)
    expect(duplicate.body).toEqual({ detail: 'A request with this Idempotency-Key is still being processed' })
    expect(duplicate.headers['retry-after']).toBe('1')
    expect(await shipsNamed(body.name)).toHaveLength(1)
  })

  it('runs a burst of concurrent duplicates exactly once', async () => {
    const key = randomUUID()
    const body = ship()
    const replies = await Promise.all(Array.from({ length: 8 }, () => org.admin.api.post(SHIPS, body, withKey(key))))
    const created = replies.filter((r) => r.status === 201)
    expect(replies.every((r) => r.status === 201 || r.status === 409)).toBe(true)
    expect(created.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1)
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1)
    expect(await shipsNamed(body.name)).toHaveLength(1)
  })

  it('keeps keys per user and per organization', async () => {
    const key = randomUUID()
    const secondAdmin = await org.addUser('admin')
    const other = await createOrg(t.app, t.database.db)
    const first = await org.admin.api.post(SHIPS, ship(), withKey(key))
    const mine = await secondAdmin.api.post(SHIPS, ship(), withKey(key))
    const theirs = await other.admin.api.post(SHIPS, ship(), withKey(key))
    for (const reply of [first, mine, theirs]) {
      expect(reply.status).toBe(201)
      expect(reply.headers['idempotent-replayed']).toBeUndefined()
    }
    expect(new Set([first.body.id, mine.body.id, theirs.body.id]).size).toBe(3)
  })

  it('forgets a key after 24 hours', async () => {
    const key = randomUUID()
    expect((await org.admin.api.post(SHIPS, ship(), withKey(key))).status).toBe(201)
    await t.database.db
      .updateTable('idempotency_keys')
      .set({ created_at: sql<Date>`now() - interval '24 hours 1 minute'` })
      .where('key', '=', key)
      .execute()
    const body = ship()
    const fresh = await org.admin.api.post(SHIPS, body, withKey(key))
    expect(fresh.status).toBe(201)
    expect(fresh.headers['idempotent-replayed']).toBeUndefined()
    expect(await shipsNamed(body.name)).toEqual([{ id: fresh.body.id }])
    expect(await keyRows(org.admin.id, key)).toHaveLength(1)
  })

  it('deletes expired keys in the hourly sweep and keeps the others', async () => {
    const [old, recent] = [randomUUID(), randomUUID()]
    expect((await org.admin.api.post(SHIPS, ship(), withKey(old))).status).toBe(201)
    expect((await org.admin.api.post(SHIPS, ship(), withKey(recent))).status).toBe(201)
    await t.database.db
      .updateTable('idempotency_keys')
      .set({ created_at: sql<Date>`now() - interval '25 hours'` })
      .where('key', '=', old)
      .execute()
    await deleteExpiredKeys(t.database.db)
    expect(await keyRows(org.admin.id, old)).toEqual([])
    expect(await keyRows(org.admin.id, recent)).toHaveLength(1)
  })

  it('stores nothing for a request that fails validation, so the fixed request may reuse the key', async () => {
    const key = randomUUID()
    const bad = await org.admin.api.post(SHIPS, { name: 'MV Bad' }, withKey(key))
    expect(bad.status).toBe(422)
    expect(await keyRows(org.admin.id, key)).toEqual([])
    expect((await org.admin.api.post(SHIPS, ship(), withKey(key))).status).toBe(201)
  })

  it('validates the header (1–255 characters) with the rest of the request', async () => {
    const empty = await org.admin.api.post(SHIPS, { name: 'MV Empty' }, withKey(''))
    expect(empty.status).toBe(422)
    expect(empty.body.detail).toEqual([
      { loc: ['header', 'idempotency-key'], msg: 'String should have at least 1 characters', type: 'string_too_short' },
      { loc: ['body', 'imoNumber'], msg: 'Field required', type: 'missing' },
    ])
    const long = await org.admin.api.post(SHIPS, ship(), withKey('k'.repeat(256)))
    expect(long.status).toBe(422)
    expect(long.body.detail).toEqual([
      { loc: ['header', 'idempotency-key'], msg: 'String should have at most 255 characters', type: 'string_too_long' },
    ])
    expect((await org.admin.api.post(SHIPS, ship(), withKey('k'.repeat(255)))).status).toBe(201)
  })

  it('behaves as before without a key, and ignores it on a GET and on the login', async () => {
    const body = ship()
    expect((await org.admin.api.post(SHIPS, body)).status).toBe(201)
    expect((await org.admin.api.post(SHIPS, body)).status).toBe(409)
    const user = await org.addUser('crew')
    const list = await user.api.get(SHIPS, withKey('g'.repeat(300)))
    expect(list.status).toBe(200)
    const login = await client(t.app).post('/api/v1/auth/token', { email: user.email, password: PASSWORD }, withKey(''))
    expect(login.status).toBe(200)
    const stored = await t.database.db.selectFrom('idempotency_keys').select('key').where('user_id', '=', user.id).execute()
    expect(stored).toEqual([])
  })

  it('documents the header on every authenticated POST of the OpenAPI document', async () => {
    const doc = (await client(t.app).get('/openapi.json')).body
    const posts = Object.entries(doc.paths as Record<string, any>).filter(([, item]) => item.post)
    expect(posts.length).toBeGreaterThan(20)
    for (const [path, item] of posts) {
      const header = item.post.parameters?.find((p: any) => p.in === 'header' && p.name === 'idempotency-key')
      // Public operations (the login, accepting a link, logout, the presigned upload target) have no user to key by.
      const exempt = item.post.security.length === 0
      expect(header === undefined, path).toBe(exempt)
      if (!exempt) expect(header.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 })
    }
  })
})
