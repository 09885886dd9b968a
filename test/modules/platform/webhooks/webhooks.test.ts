import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, useOrg } from '../../../factories.js'
import { createAssignment, createShip } from '../../../fixtures/assignments.js'

const t = useTestApp()
const org = useOrg(t)
const BASE = '/api/v1/shared/webhooks'
const PUBLIC_URL = 'https://93.184.216.34/hooks'

const create = (body: Record<string, unknown>) => org.admin.api.post(BASE, body)
const eventsOf = (targetId: string) =>
  t.database.db
    .selectFrom('events')
    .selectAll()
    .where('organization_id', '=', org.id)
    .where('target_id', '=', targetId)
    .orderBy('occurred_at')
    .execute()

describe('webhook subscriptions', () => {
  it('creates a subscription with a one-time secret, reads, lists, patches and deletes it, each with its event', async () => {
    const res = await create({ url: PUBLIC_URL, events: ['ship.*', 'document.expiring'], description: 'Payroll' })
    expect(res.status).toBe(201)
    const { secret, ...webhook } = res.body
    expect(webhook).toEqual({
      id: expect.any(String),
      url: PUBLIC_URL,
      events: ['ship.*', 'document.expiring'],
      description: 'Payroll',
      active: true,
      createdAt: expect.any(String),
    })
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24)
    const url = `${BASE}/${webhook.id}`
    expect((await org.admin.api.get(url)).body).toEqual(webhook)
    const list = await org.admin.api.get(`${BASE}?limit=1000&include_count=true`)
    expect(list.body.items).toContainEqual(webhook)
    expect(JSON.stringify(list.body)).not.toContain(secret)

    const patched = await org.admin.api.patch(url, { active: false, description: null, events: ['ship.*', 'document.expiring'] })
    expect(patched.status).toBe(200)
    expect(patched.body).toEqual({ ...webhook, active: false, description: null })
    expect((await org.admin.api.patch(url, {})).body).toEqual(patched.body)

    const rotated = await org.admin.api.post(`${url}/rotate-secret`)
    expect(rotated.status).toBe(200)
    expect(rotated.body.secret).toMatch(/^whsec_/)
    expect(rotated.body.secret).not.toBe(secret)

    expect((await org.admin.api.delete(url)).status).toBe(204)
    expect((await org.admin.api.get(url)).body).toEqual({ detail: 'Webhook not found' })

    const events = await eventsOf(webhook.id)
    expect(events.map((e) => [e.type, e.data, e.actor_user_id, e.actor_role])).toEqual([
      ['webhook.created', webhook, org.admin.id, 'admin'],
      ['webhook.updated', { changes: { active: [true, false], description: ['Payroll', null] } }, org.admin.id, 'admin'],
      ['webhook.secret_rotated', {}, org.admin.id, 'admin'],
      ['webhook.deleted', patched.body, org.admin.id, 'admin'],
    ])
    expect(JSON.stringify(events)).not.toContain(secret.slice(6))
    expect(JSON.stringify(events)).not.toContain(rotated.body.secret.slice(6))
    const audit = await org.admin.api.get(`/api/v1/shared/audit-events?type=webhook.*&target_id=${webhook.id}`)
    expect(audit.body.items.map((e: { type: string }) => e.type)).toEqual([
      'webhook.deleted',
      'webhook.secret_rotated',
      'webhook.updated',
      'webhook.created',
    ])
  })

  it("writes the request's id into its event", async () => {
    const res = await org.admin.api.post(BASE, { url: PUBLIC_URL, events: ['*'] }, { 'x-request-id': 'hook-create-1' })
    const [event] = await eventsOf(res.body.id)
    expect([event.type, event.request_id]).toEqual(['webhook.created', 'hook-create-1'])
  })

  it('refuses each kind of target the guard forbids with a 422 at ["body","url"]', async () => {
    const refused = [
      'not a url',
      '/relative/path',
      'http://93.184.216.34/plain-http',
      'ftp://93.184.216.34/',
      'https://127.0.0.1/loopback',
      'https://127.1.2.3/loopback',
      'https://localhost/loopback-name',
      'https://[::1]/loopback-v6',
      'https://10.1.2.3/private',
      'https://172.16.0.1/private',
      'https://192.168.1.1/private',
      'https://100.64.0.1/shared-cgnat',
      'https://[fc00::1]/unique-local',
      'https://[fd12:3456::1]/unique-local',
      'https://169.254.169.254/link-local',
      'https://[fe80::1]/link-local-v6',
      'https://0.0.0.0/unspecified',
      'https://[::]/unspecified-v6',
      'https://[::ffff:127.0.0.1]/mapped-loopback',
      'https://[::ffff:10.0.0.1]/mapped-private',
      'https://2130706433/decimal-loopback',
      'https://host.does-not-exist.invalid/no-dns',
    ]
    for (const url of refused) {
      const res = await create({ url, events: ['*'] })
      expect([url, res.status, res.body]).toEqual([
        url,
        422,
        { detail: [{ loc: ['body', 'url'], msg: expect.any(String), type: 'value_error' }] },
      ])
    }
    const webhook = (await create({ url: PUBLIC_URL, events: ['*'] })).body
    const patched = await org.admin.api.patch(`${BASE}/${webhook.id}`, { url: 'https://10.0.0.1/' })
    expect(patched.status).toBe(422)
    expect(patched.body.detail[0].loc).toEqual(['body', 'url'])
    expect((await org.admin.api.get(`${BASE}/${webhook.id}`)).body.url).toBe(PUBLIC_URL)
  })

  it('checks the event patterns: listed types, "prefix.*" of listed types, "*"; 1 to 50 of them', async () => {
    expect((await create({ url: PUBLIC_URL, events: ['*', 'user.*', 'webhook.test', 'auth.login_failed'] })).status).toBe(201)
    const res = await create({ url: PUBLIC_URL, events: ['ship.created', 'ship.sunk', 'nothing.*', 'user.*.x', ''] })
    expect(res.status).toBe(422)
    expect(res.body.detail.map((d: { loc: unknown[]; type: string }) => [d.loc, d.type])).toEqual([
      [['body', 'events', 1], 'value_error'],
      [['body', 'events', 2], 'value_error'],
      [['body', 'events', 3], 'value_error'],
      [['body', 'events', 4], 'value_error'],
    ])
    expect((await create({ url: PUBLIC_URL, events: [] })).body.detail[0]).toMatchObject({ loc: ['body', 'events'], type: 'too_short' })
    expect((await create({ url: PUBLIC_URL, events: Array(51).fill('*') })).body.detail[0]).toMatchObject({
      loc: ['body', 'events'],
      type: 'too_long',
    })
    expect((await create({ events: ['*'] })).body.detail).toEqual([{ loc: ['body', 'url'], msg: expect.any(String), type: 'missing' }])
  })

  it("lets only admins near subscriptions (403) and hides other organizations' (404)", async () => {
    const { secret: _secret, ...webhook } = (await create({ url: PUBLIC_URL, events: ['*'] })).body
    const url = `${BASE}/${webhook.id}`
    for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
      for (const res of [
        await user.api.get(BASE),
        await user.api.post(BASE, { url: PUBLIC_URL, events: ['*'] }),
        await user.api.get(url),
        await user.api.patch(url, { active: false }),
        await user.api.delete(url),
        await user.api.post(`${url}/rotate-secret`),
        await user.api.post(`${url}/test`),
        await user.api.get(`${url}/deliveries`),
      ]) {
        expect([res.status, res.body]).toEqual([403, { detail: 'Not enough permissions' }])
      }
    }
    const other = await createOrg(t.app, t.database.db)
    for (const res of [
      await other.admin.api.get(url),
      await other.admin.api.patch(url, { active: false }),
      await other.admin.api.delete(url),
      await other.admin.api.post(`${url}/rotate-secret`),
      await other.admin.api.post(`${url}/test`),
      await other.admin.api.get(`${url}/deliveries`),
    ]) {
      expect([res.status, res.body]).toEqual([404, { detail: 'Webhook not found' }])
    }
    expect((await other.admin.api.get(`${BASE}?limit=1000`)).body.items).toEqual([])
    expect((await org.admin.api.get(url)).body).toEqual(webhook)
  })

  it('answers 409 to a test of an inactive subscription, 404 to a retry of an unknown delivery, 422 to bad ids', async () => {
    const webhook = (await create({ url: PUBLIC_URL, events: ['*'] })).body
    await org.admin.api.patch(`${BASE}/${webhook.id}`, { active: false })
    const test = await org.admin.api.post(`${BASE}/${webhook.id}/test`)
    expect([test.status, test.body]).toEqual([409, { detail: 'The webhook is not active' }])
    const retry = await org.admin.api.post(`${BASE}/${webhook.id}/deliveries/0190a000-0000-7000-8000-000000000d01/retry`)
    expect([retry.status, retry.body]).toEqual([404, { detail: 'Delivery not found' }])
    const bad = await org.admin.api.get(`${BASE}/nope/deliveries`)
    expect(bad.status).toBe(422)
    expect(bad.body.detail[0]).toMatchObject({ loc: ['path', 'webhook_id'], type: 'uuid_parsing' })
  })
})

describe('the delivery log in pages', () => {
  it('follows the cursor through deliveries one statement made microseconds apart, none skipped or repeated', async () => {
    const webhook = (await create({ url: PUBLIC_URL, events: ['assignment.created'] })).body
    const ship = await createShip(org)
    const users = await Promise.all(Array.from({ length: 6 }, () => org.addUser('crew')))
    const bulk = { userIds: users.map((u) => u.id), shipId: ship.id, role: 'Oiler' }
    expect((await org.admin.api.post('/api/v1/learn/assignments/bulk/create', bulk)).body.createdCount).toBe(6)
    const stored = await t.database.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', webhook.id).execute()
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: { status: number; body: { items: { id: string }[]; nextCursor: string | null } } = await org.admin.api.get(
        `${BASE}/${webhook.id}/deliveries?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(page.status).toBe(200)
      seen.push(...page.body.items.map((item) => item.id))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(stored).toHaveLength(6)
    expect(seen.sort()).toEqual(stored.map((d) => d.id).sort())
  })
})

describe('the delivery log by name', () => {
  it('names the actor, the person and the record of each delivery, in the list and in a retry answer', async () => {
    const webhook = (await create({ url: PUBLIC_URL, events: ['ship.created', 'assignment.created'] })).body
    const ship = await createShip(org, 'MV Named Star')
    const sailor = await org.addUser('crew', { firstName: 'Ana', lastName: 'Lima' })
    const assignment = await createAssignment(org, sailor, ship)
    const list = await org.admin.api.get(`${BASE}/${webhook.id}/deliveries`)
    expect(list.status).toBe(200)
    const names = (d: Record<string, unknown>) => [d.eventType, d.target, d.actorName, d.personId, d.personName, d.targetKind, d.targetName]
    expect(list.body.items.map(names)).toEqual([
      ['assignment.created', { type: 'assignment', id: assignment.id }, 'Test admin', sailor.id, 'Ana Lima', null, 'MV Named Star'],
      ['ship.created', { type: 'ship', id: ship.id }, 'Test admin', null, null, null, 'MV Named Star'],
    ])
    const retry = await org.admin.api.post(`${BASE}/${webhook.id}/deliveries/${list.body.items[0].id}/retry`)
    expect(retry.status).toBe(200)
    expect(retry.body).toEqual({ ...list.body.items[0], status: 'pending', nextAttemptAt: expect.any(String) })
    const stored = await t.database.db.selectFrom('webhook_deliveries').select('status').where('id', '=', retry.body.id).executeTakeFirstOrThrow()
    expect(stored.status).toBe('pending')
  })
})
