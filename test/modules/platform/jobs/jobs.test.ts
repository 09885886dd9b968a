import { type KyselyPlugin, sql } from 'kysely'
import { Webhook } from 'standardwebhooks'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, client, privateDatabase, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { type Received, type Receiver, startReceiver } from '../../../webhook-receiver.js'
import type { Database } from '../../../../src/db/database.js'
import { addDays, todayUtc } from '../../../../src/lib/dates.js'
import type { DB } from '../../../../src/db/schema.js'
import { type EventType, eventsInsert } from '../../../../src/lib/events.js'
import { uuidv7s } from '../../../../src/lib/ids.js'
import { nextAttemptAt } from '../../../../src/modules/platform/webhooks/delivery.js'
import { newSecret } from '../../../../src/modules/platform/webhooks/webhooks.queries.js'

// Every test of background work is in this file: its apps are the only ones of the suite that work
// the job queue, so on a shared PostgreSQL no other file's worker takes these jobs.
const WORKING = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_HTTP: '1', RUN_JOBS: '1' }
// The timeout is short for the tests of slow receivers, yet long enough for a busy machine's first connection.
const FAST = { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1, deliveryTimeoutMs: 4000 }
const BASE = '/api/v1/shared/webhooks'

let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())

// The file's own database: its workers and sweeps read every organization, so other files' rows and
// subscriptions (receivers long gone, hosts that do not resolve) must not reach them.
let own: Awaited<ReturnType<typeof privateDatabase>>
beforeAll(async () => {
  own = await privateDatabase()
})
afterAll(() => own.dispose())
const appOn = (overrides?: Record<string, string>, options: Parameters<typeof buildTestApp>[1] = {}) =>
  buildTestApp(overrides, { database: own.database, ...options })

const byPath = (path: string) => (r: Received) => r.path === path

async function subscribe(org: TestOrg, path: string, events: string[]) {
  const res = await org.admin.api.post(BASE, { url: receiver.url(path), events })
  expect(res.status).toBe(201)
  return res.body as { id: string; secret: string }
}

/** Events of these types, committed together in this order; their ids. */
async function emit(t: TestApp, org: TestOrg, ...types: EventType[]): Promise<string[]> {
  const ids = uuidv7s(types.length)
  const source = { orgId: org.id, actor: { userId: org.admin.id, role: 'admin' as const }, requestId: 'test-request' }
  const rows = sql<{ target_id: string; data: unknown }>`select ${org.admin.id}::uuid as target_id, '{"n": 1}'::jsonb as data`
  await t.database.db.transaction().execute(async (trx) => {
    for (const [i, type] of types.entries()) await eventsInsert<DB>(trx, source, type, type.split('.')[0], rows, [ids[i]]).execute()
  })
  return ids
}

const deliveries = async (org: TestOrg, webhookId: string, api = org.admin.api) =>
  (await api.get(`${BASE}/${webhookId}/deliveries?limit=1000`)).body.items

/** Polls the delivery log until `done` holds (the test's timeout ends a wait that never does). */
async function logUntil(org: TestOrg, webhookId: string, done: (items: any[]) => boolean, api = org.admin.api) {
  for (;;) {
    const items = await deliveries(org, webhookId, api)
    if (done(items)) return items
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

describe('webhook delivery', () => {
  let t: TestApp
  let org: TestOrg
  beforeAll(async () => {
    t = await appOn(WORKING, { jobs: FAST })
    org = await createOrg(t.app, t.database.db)
  })
  afterAll(() => t.app.close())

  it('delivers each matching event once, signed so the standardwebhooks library verifies it', async () => {
    const hook = await subscribe(org, '/signed', ['ship.*'])
    const [created, , deleted] = await emit(t, org, 'ship.created', 'user.created', 'ship.deleted')
    const got = await receiver.waitFor(byPath('/signed'), 2)
    const verifier = new Webhook(hook.secret)
    const payloads = got.map((r) => {
      expect(r.headers['content-type']).toBe('application/json')
      expect(r.headers['webhook-timestamp']).toMatch(/^\d+$/)
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60)
      return { id: r.headers['webhook-id'], payload: verifier.verify(r.body, r.headers as Record<string, string>) }
    })
    expect(payloads.map((p) => p.id).sort()).toEqual([created, deleted].sort())
    expect(payloads.find((p) => p.id === created)!.payload).toEqual({
      id: created,
      type: 'ship.created',
      occurredAt: expect.any(String),
      organizationId: org.id,
      actor: { userId: org.admin.id, role: 'admin' },
      target: { type: 'ship', id: org.admin.id },
      data: { n: 1 },
      requestId: 'test-request',
    })
    const log = await logUntil(org, hook.id, (items) => items.every((d) => d.status === 'succeeded'))
    expect(log).toHaveLength(2)
    const metrics = (await client(t.app).get('/metrics')).text
    expect(Number(/^webhook_deliveries_total\{outcome="succeeded"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(2)
    expect(metrics).toMatch(/^job_queue_depth \d+$/m)
    for (const d of log) {
      expect(d).toEqual({
        id: expect.any(String),
        eventId: expect.any(String),
        eventType: expect.stringMatching(/^ship\./),
        attempt: 1,
        status: 'succeeded',
        responseStatus: 204,
        durationMs: expect.any(Number),
        createdAt: expect.any(String),
        nextAttemptAt: null,
        // The events name no existing ship (their target id is the admin's): only the actor has a name.
        target: { type: 'ship', id: org.admin.id },
        actorName: 'Test admin',
        personId: null,
        personName: null,
        targetKind: null,
        targetName: null,
      })
    }
  })

  it('fans out to matching active subscriptions of the same organization only', async () => {
    const other = await createOrg(t.app, t.database.db)
    const exact = await subscribe(org, '/fan-exact', ['user.created'])
    const all = await subscribe(org, '/fan-all', ['*'])
    const off = await subscribe(org, '/fan-off', ['*'])
    await org.admin.api.patch(`${BASE}/${off.id}`, { active: false })
    const theirs = await subscribe(other, '/fan-theirs', ['*'])
    await emit(t, org, 'user.created', 'ship.updated')
    const types = async (o: TestOrg, id: string) =>
      (await deliveries(o, id))
        .map((d: { eventType: string }) => d.eventType)
        .filter((type: string) => !type.startsWith('webhook.'))
        .sort()
    expect(await types(org, exact.id)).toEqual(['user.created'])
    expect(await types(org, all.id)).toEqual(['ship.updated', 'user.created'])
    expect(await types(org, off.id)).toEqual([])
    expect(await types(other, theirs.id)).toEqual([])
  })

  it('signs with the new secret only after a rotation', async () => {
    const hook = await subscribe(org, '/rotated', ['ship.*'])
    const rotated = (await org.admin.api.post(`${BASE}/${hook.id}/rotate-secret`)).body.secret
    await emit(t, org, 'ship.updated')
    const [got] = await receiver.waitFor(byPath('/rotated'))
    const headers = got.headers as Record<string, string>
    expect(new Webhook(rotated).verify(got.body, headers)).toMatchObject({ type: 'ship.updated' })
    expect(() => new Webhook(hook.secret).verify(got.body, headers)).toThrow()
  })

  it('retries a 500 about 5 s later and records each attempt', async () => {
    receiver.at('/flaky', { status: 500 })
    const hook = await subscribe(org, '/flaky', ['ship.*'])
    await emit(t, org, 'ship.created')
    const [answered] = await receiver.waitFor(byPath('/flaky'))
    const [first] = await logUntil(org, hook.id, (items) => items[0]?.attempt === 1)
    const seen = Date.now()
    expect(first).toMatchObject({ attempt: 1, status: 'pending', responseStatus: 500 })
    // Recorded after the receiver answered and before the log showed it, due 5 s after that moment
    // however long the machine took in between.
    const next = Date.parse(first.nextAttemptAt)
    expect(next).toBeGreaterThanOrEqual(answered.receivedAt + 5000)
    expect(next).toBeLessThanOrEqual(seen + 5000)
    receiver.at('/flaky', { status: 200 })
    const [second, again] = await receiver.waitFor(byPath('/flaky'), 2)
    expect(again.headers['webhook-id']).toBe(second.headers['webhook-id'])
    expect(again.receivedAt - second.receivedAt).toBeGreaterThanOrEqual(4000)
    const [done] = await logUntil(org, hook.id, (items) => items[0]?.status === 'succeeded')
    expect(done).toMatchObject({ attempt: 2, responseStatus: 200, nextAttemptAt: null })
  })

  it('counts an answer slower than the timeout, or none, as a failed attempt without status or duration', async () => {
    receiver.at('/slow', { status: 200, delayMs: 8000 })
    receiver.at('/hang', 'hang')
    for (const path of ['/slow', '/hang']) {
      const hook = await subscribe(org, path, ['ship.*'])
      await emit(t, org, 'ship.created')
      const [d] = await logUntil(org, hook.id, (items) => items[0]?.attempt === 1)
      expect(d).toMatchObject({ status: 'pending', responseStatus: null, durationMs: null, nextAttemptAt: expect.any(String) })
    }
  })

  it('follows the retry schedule of §11 and fails a delivery after its 8th attempt', async () => {
    const now = new Date('2026-06-15T08:00:00.000Z')
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => {
      const next = nextAttemptAt(n, now)
      return next && (next.getTime() - now.getTime()) / 1000
    })
    expect(delays).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000, null])

    receiver.at('/doomed', { status: 503 })
    const hook = await subscribe(org, '/doomed', ['ship.*'])
    await emit(t, org, 'ship.created')
    const [d] = await logUntil(org, hook.id, (items) => items[0]?.attempt === 1)
    // Seven attempts behind it: the next one is the last.
    await t.database.db.updateTable('webhook_deliveries').set({ attempt: 7 }).where('id', '=', d.id).execute()
    const retried = await org.admin.api.post(`${BASE}/${hook.id}/deliveries/${d.id}/retry`)
    expect(retried.status).toBe(200)
    expect(retried.body).toMatchObject({ id: d.id, status: 'pending', attempt: 7 })
    const [failed] = await logUntil(org, hook.id, (items) => items[0]?.status === 'failed')
    expect(failed).toMatchObject({ attempt: 8, responseStatus: 503, nextAttemptAt: null })
  })

  it('sends a delivery again on a manual retry, whatever its status', async () => {
    const hook = await subscribe(org, '/manual', ['ship.*'])
    await emit(t, org, 'ship.created')
    const [d] = await logUntil(org, hook.id, (items) => items[0]?.status === 'succeeded')
    const res = await org.admin.api.post(`${BASE}/${hook.id}/deliveries/${d.id}/retry`)
    expect([res.status, res.body.status, res.body.nextAttemptAt]).toEqual([200, 'pending', expect.any(String)])
    const got = await receiver.waitFor(byPath('/manual'), 2)
    expect(got[1].headers['webhook-id']).toBe(got[0].headers['webhook-id'])
    const [done] = await logUntil(org, hook.id, (items) => items[0]?.status === 'succeeded' && items[0].attempt === 2)
    expect(done.id).toBe(d.id)
  })

  it('delivers a test event to that subscription only, whatever its events, and lists it in the audit trail', async () => {
    const hook = await subscribe(org, '/tested', ['ship.deleted'])
    const bystander = await subscribe(org, '/bystander', ['*'])
    const res = await org.admin.api.post(`${BASE}/${hook.id}/test`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ eventId: expect.any(String) })
    const [got] = await receiver.waitFor(byPath('/tested'))
    expect(new Webhook(hook.secret).verify(got.body, got.headers as Record<string, string>)).toMatchObject({
      id: res.body.eventId,
      type: 'webhook.test',
      target: { type: 'webhook', id: hook.id },
      actor: { userId: org.admin.id, role: 'admin' },
    })
    expect((await deliveries(org, bystander.id)).map((d: { eventType: string }) => d.eventType)).not.toContain('webhook.test')
    const event = await t.database.db.selectFrom('events').select('type').where('id', '=', res.body.eventId).executeTakeFirst()
    expect(event).toEqual({ type: 'webhook.test' })
  })
})

/** The same database, as a process that dies at `crash.now`: from then on every statement fails. */
function crashable(database: Database, crash: { now: boolean }): Database {
  const dead = () => new Error('the process died')
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      if (crash.now) throw dead()
      return args.node
    },
    transformResult: async (args) => args.result,
  }
  return {
    ...database,
    db: database.db.withPlugin(plugin),
    executeSql: (text, values) => (crash.now ? Promise.reject(dead()) : database.executeSql(text, values)),
  }
}

describe('delivery across instances and crashes', () => {
  it('sends again, and records, a delivery whose worker died between sending and recording', { timeout: 90_000 }, async () => {
    const crash = { now: false }
    const dying = await appOn(WORKING, { jobs: FAST, database: crashable(own.database, crash) })
    const org = await createOrg(dying.app, dying.database.db)
    const hook = await subscribe(org, '/crash', ['ship.*'])
    receiver.onRequest((r) => {
      if (r.path === '/crash') crash.now = true
    })
    const [eventId] = await emit(dying, org, 'ship.created')
    await receiver.waitFor(byPath('/crash'))
    const survivor = await appOn(WORKING, { jobs: FAST })
    try {
      const got = await receiver.waitFor(byPath('/crash'), 2)
      expect(got.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId])
      const api = client(survivor.app, org.admin.token)
      const [d] = await logUntil(org, hook.id, (items) => items[0]?.status === 'succeeded', api)
      expect(d).toMatchObject({ attempt: 1, responseStatus: 204 })
    } finally {
      receiver.onRequest(() => {})
      await Promise.all([dying.app.close().catch(() => {}), survivor.app.close()])
    }
  })

  it('never has two instances send one delivery at the same time', { timeout: 90_000 }, async () => {
    const apps = [await appOn(WORKING, { jobs: FAST }), await appOn(WORKING, { jobs: FAST })]
    try {
      const org = await createOrg(apps[0].app, apps[0].database.db)
      receiver.at('/pair', { status: 200, delayMs: 150 })
      const inFlight = new Set<string>()
      const overlaps: string[] = []
      receiver.onRequest(async (r) => {
        if (r.path !== '/pair') return
        const id = String(r.headers['webhook-id'])
        if (inFlight.has(id)) overlaps.push(id)
        inFlight.add(id)
        setTimeout(() => inFlight.delete(id), 150)
      })
      const hook = await subscribe(org, '/pair', ['ship.*'])
      const ids = await emit(apps[0], org, ...Array<EventType>(12).fill('ship.updated'))
      // A second job for every delivery, queued while the first may be running: both instances take jobs.
      const log = await deliveries(org, hook.id)
      await Promise.all(log.map((d: { id: string }) => org.admin.api.post(`${BASE}/${hook.id}/deliveries/${d.id}/retry`)))
      await logUntil(org, hook.id, (items) => items.length === 12 && items.every((d) => d.status === 'succeeded'))
      expect(new Set(receiver.received.filter(byPath('/pair')).map((r) => r.headers['webhook-id']))).toEqual(new Set(ids))
      expect(overlaps).toEqual([])
    } finally {
      receiver.onRequest(() => {})
      await Promise.all(apps.map((a) => a.app.close()))
    }
  })
})

describe('expiry notices', () => {
  it('announces each threshold once per expiry date, across sweeps, instances and restarts', { timeout: 90_000 }, async () => {
    const expiry = { ...WORKING, EXPIRY_SWEEP_INTERVAL_SECONDS: '1' }
    // Requests go to an instance that works no jobs, so the workers can restart under them.
    const plain = await appOn({ ...WORKING, RUN_JOBS: '0' })
    let apps = [await appOn(expiry, { jobs: FAST }), await appOn(expiry, { jobs: FAST })]
    const org = await createOrg(plain.app, plain.database.db)
    const hook = await subscribe(org, '/expiry', ['document.*'])
    const today = todayUtc()
    const add = async (path: string, body: Record<string, unknown>) => {
      const res = await org.admin.api.post(`/api/v1/crew/users/${org.crew.id}/${path}`, body)
      expect([res.status, res.body]).toEqual([201, expect.anything()])
      return res.body.id as string
    }
    const passport = await add('identity-documents', { documentType: 'passport', documentNumber: 'P1', expiryDate: addDays(today, 20) })
    const visa = await add('identity-documents', { documentType: 'us_visa', documentNumber: 'V1', expiryDate: addDays(today, -1) })
    await add('identity-documents', { documentType: 'seaman_book', documentNumber: 'S1', expiryDate: addDays(today, 200) })
    const cert = await add('certificates', { certificateType: 'stcw_basic_safety', expiryDate: addDays(today, 5) })
    const notices = () =>
      receiver.received
        .filter(byPath('/expiry'))
        .map((r) => JSON.parse(r.body))
        .map((e) => [e.type, e.target.id, e.data.threshold ?? null, e.data.expiryDate])
        .sort()
    const expected = [
      ['document.expired', visa, null, addDays(today, -1)],
      ['document.expiring', cert, 7, addDays(today, 5)],
      ['document.expiring', passport, 30, addDays(today, 20)],
    ].sort()
    await receiver.waitFor(byPath('/expiry'), 3)
    // Waits until n more sweeps have completed (on this file's own database), however slow the machine.
    const completedSweeps = async () =>
      Number(
        (
          await sql<{ n: string }>`select count(*) as n from pgboss.job where name = 'expiry-sweep' and state = 'completed'`.execute(
            own.database.db,
          )
        ).rows[0].n,
      )
    const sweeps = async (n: number) => {
      const target = (await completedSweeps()) + n
      while ((await completedSweeps()) < target) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    await sweeps(3)
    expect(notices()).toEqual(expected)
    const [first] = receiver.received.filter(byPath('/expiry')).map((r) => JSON.parse(r.body))
    expect(first).toMatchObject({ actor: null, requestId: null, organizationId: org.id })
    // The sweep's event ids are made in the database, time-ordered (version 7) like the service's own.
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const idTime = Number.parseInt(first.id.replaceAll('-', '').slice(0, 12), 16)
    expect(Math.abs(idTime - Date.parse(first.occurredAt))).toBeLessThan(60_000)

    // A restart sweeps again at start and finds nothing new.
    await Promise.all(apps.map((a) => a.app.close()))
    apps = [await appOn(expiry, { jobs: FAST })]
    try {
      await sweeps(3)
      expect(notices()).toEqual(expected)
      // A new expiry date starts afresh (only its smallest crossed threshold); a new threshold is crossed once.
      expect((await org.admin.api.patch(`/api/v1/crew/identity-documents/${passport}`, { expiryDate: addDays(today, 50) })).status).toBe(
        200,
      )
      expect(
        (await org.admin.api.patch('/api/v1/shared/organization', { settings: { expiryNotificationDays: [90, 60, 30, 7, 3, 6] } })).status,
      ).toBe(200)
      const more = [
        ['document.expiring', passport, 60, addDays(today, 50)],
        ['document.expiring', cert, 6, addDays(today, 5)],
      ]
      await receiver.waitFor(byPath('/expiry'), 5)
      await sweeps(3)
      expect(notices()).toEqual([...expected, ...more].sort())
      expect((await deliveries(org, hook.id)).length).toBe(5)
    } finally {
      await Promise.all([plain, ...apps].map((a) => a.app.close()))
    }
  })
})

describe('audit retention', () => {
  it('deletes the events older than AUDIT_RETENTION_DAYS, which nothing else may change or delete', { timeout: 60_000 }, async () => {
    const plain = await appOn()
    const { db } = plain.database
    try {
      const org = await createOrg(plain.app, db)
      const webhook = { id: uuidv7(), organization_id: org.id, url: receiver.url('/retained'), events: ['*'], secret: newSecret() }
      await db.insertInto('webhooks').values(webhook).execute()
      const [old, recent] = await emit(plain, org, 'ship.created', 'ship.updated')
      const deliveredEvents = () =>
        db.selectFrom('webhook_deliveries').select('event_id').where('webhook_id', '=', webhook.id).orderBy('event_id').execute()
      expect(await deliveredEvents()).toEqual([{ event_id: old }, { event_id: recent }])
      await expect(db.deleteFrom('events').where('id', '=', recent).execute()).rejects.toThrow()
      await expect(db.updateTable('events').set({ type: 'x' }).where('id', '=', recent).execute()).rejects.toThrow()
      // Written three days ago, as far as the trail can tell: only the retention job's setting lets it change.
      await db.transaction().execute(async (trx) => {
        await sql`select set_config('seaworthy.audit_retention', 'on', true)`.execute(trx)
        await sql`update events set occurred_at = now() - interval '3 days' where id = ${old}`.execute(trx)
      })
      const retaining = await appOn({ ...WORKING, AUDIT_RETENTION_DAYS: '2' }, { jobs: FAST })
      try {
        for (;;) {
          const left = await db.selectFrom('events').select('id').where('id', 'in', [old, recent]).execute()
          if (left.length === 1) {
            expect(left).toEqual([{ id: recent }])
            return void expect(await deliveredEvents()).toEqual([{ event_id: recent }])
          }
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
      } finally {
        await retaining.app.close()
      }
    } finally {
      await plain.app.close()
    }
  })
})
