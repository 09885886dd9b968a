import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { DB } from '../src/db/schema.js'
import { type EventSource, type EventType, eventsInsert } from '../src/lib/events.js'
import { uuidv7s } from '../src/lib/ids.js'
import { eventWire } from '../src/modules/platform/audit/audit.schemas.js'
import { privateDatabase, useTestApp } from './app.js'
import { useOrg } from './factories.js'

const t = useTestApp()
const org = useOrg(t)

/** One event written by a statement of its own, through the one INSERT every write uses. */
async function write(source: EventSource, type: EventType, target: { type: string; id: string | null }, data: unknown) {
  const [id] = uuidv7s(1)
  const rows = sql<{ target_id: string; data: unknown }>`select ${target.id}::uuid as target_id, ${JSON.stringify(data)}::jsonb as data`
  await eventsInsert<DB>(t.database.db, source, type, target.type, rows, [id]).execute()
  return id
}

const readBack = (ids: string[]) => t.database.db.selectFrom('events').selectAll().where('id', 'in', ids).orderBy('id').execute()

describe('the events table (DECISIONS §11)', () => {
  it('writes events and reads them back in the wire shape', async () => {
    const actor = { userId: org.admin.id, role: 'admin' as const }
    const source = { orgId: org.id, actor, requestId: 'req-1' }
    const ids = [
      await write(source, 'ship.created', { type: 'ship', id: org.admin.id }, { name: 'MV One' }),
      await write(source, 'auth.login_failed', { type: 'user', id: null }, {}),
    ]
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
    const system = await write({ orgId: org.id, actor: null, requestId: null }, 'document.expired', { type: 'certificate', id: org.crew.id }, {})
    expect((await readBack([system])).map(eventWire)[0]).toMatchObject({ actor: null, requestId: null })
  })

  it('writes any number of events in one statement: their rows come from SQL, their ids in one array (a fleet\'s first expiry sweep)', async () => {
    const ids = uuidv7s(12_000)
    const rows = sql<{ target_id: string; data: unknown }>`select ${org.crew.id}::uuid as target_id, jsonb_build_object('n', n) as data
      from generate_series(1, 12000) n`
    await eventsInsert<DB>(t.database.db, { orgId: org.id, actor: null, requestId: null }, 'document.expired', 'certificate', rows, ids).execute()
    const stored = await t.database.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('id', 'in', ids)
      .executeTakeFirstOrThrow()
    expect(Number(stored.n)).toBe(12_000)
  })

  it('refuses UPDATE, DELETE and TRUNCATE, except in a transaction of the retention job', async () => {
    const id = await write({ orgId: org.id, actor: null, requestId: null }, 'organization.updated', { type: 'organization', id: org.id }, {
      changes: {},
    })
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
