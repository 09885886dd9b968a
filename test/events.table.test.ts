import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { appendEvents } from '../src/lib/events.js'
import { eventWire } from '../src/modules/audit/audit.schemas.js'
import { privateDatabase, useTestApp } from './app.js'
import { useOrg } from './factories.js'

const t = useTestApp()
const org = useOrg(t)

const readBack = (ids: string[]) => t.database.db.selectFrom('events').selectAll().where('id', 'in', ids).orderBy('id').execute()

describe('the events table (DECISIONS §11)', () => {
  it('appends any number of events in one statement and reads them back in the wire shape', async () => {
    const actor = { userId: org.admin.id, role: 'admin' as const }
    const ids = await appendEvents(t.database.db, { orgId: org.id, actor, requestId: 'req-1' }, [
      { type: 'ship.created', target: { type: 'ship', id: org.admin.id }, data: { name: 'MV One' } },
      { type: 'auth.login_failed', target: { type: 'user', id: null }, data: {} },
    ])
    expect(ids).toHaveLength(2)
    const events = (await readBack(ids)).map(eventWire)
    expect(events).toEqual([
      {
        id: ids[0],
        type: 'ship.created',
        occurredAt: expect.any(String),
        organizationId: org.id,
        actor,
        target: { type: 'ship', id: org.admin.id },
        data: { name: 'MV One' },
        requestId: 'req-1',
      },
      expect.objectContaining({ id: ids[1], type: 'auth.login_failed', target: { type: 'user', id: null } }),
    ])
    const [system] = await appendEvents(t.database.db, { orgId: org.id, actor: null, requestId: null }, [
      { type: 'document.expired', target: { type: 'certificate', id: org.crew.id }, data: { daysLeft: -1 } },
    ])
    expect((await readBack([system])).map(eventWire)[0]).toMatchObject({ actor: null, requestId: null })
    expect(await appendEvents(t.database.db, { orgId: org.id, actor: null, requestId: null }, [])).toEqual([])
  })

  it("appends more events than one statement's 65,535 parameters allow (a fleet's first expiry sweep)", async () => {
    const many = Array.from({ length: 12_000 }, (_, n) => ({
      type: 'document.expired' as const,
      target: { type: 'certificate', id: org.crew.id },
      data: { n },
    }))
    const ids = await appendEvents(t.database.db, { orgId: org.id, actor: null, requestId: null }, many)
    expect(new Set(ids).size).toBe(12_000)
    const stored = await t.database.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('id', 'in', ids)
      .executeTakeFirstOrThrow()
    expect(Number(stored.n)).toBe(12_000)
  })

  it('refuses UPDATE, DELETE and TRUNCATE, except in a transaction of the retention job', async () => {
    const [id] = await appendEvents(t.database.db, { orgId: org.id, actor: null, requestId: null }, [
      { type: 'organization.updated', target: { type: 'organization', id: org.id }, data: { changes: {} } },
    ])
    const db = t.database.db
    await expect(db.updateTable('events').set({ request_id: 'forged' }).where('id', '=', id).execute()).rejects.toThrow(/append-only/)
    await expect(db.deleteFrom('events').where('id', '=', id).execute()).rejects.toThrow(/append-only/)
    // TRUNCATE first takes the table's lock, queueing behind every open writer of events and every writer
    // after it behind itself: on the shared database one long transaction of another file stalled them all.
    const own = await privateDatabase()
    try {
      await expect(sql`truncate events`.execute(own.database.db)).rejects.toThrow(/append-only/)
    } finally {
      await own.dispose()
    }
    expect(await readBack([id])).toHaveLength(1)
    await db.transaction().execute(async (trx) => {
      await sql`select set_config('seaworthy.audit_retention', 'on', true)`.execute(trx)
      await trx.deleteFrom('events').where('id', '=', id).execute()
    })
    expect(await readBack([id])).toHaveLength(0)
    // The setting was local to that transaction: the next statement is refused again.
    await expect(db.deleteFrom('events').where('organization_id', '=', org.id).execute()).rejects.toThrow(/append-only/)
  })
})
