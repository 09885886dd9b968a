import { v7 as uuidv7 } from 'uuid'
import { describe, expect, it } from 'vitest'
import { useTestApp } from './app.js'
import { nextImo, useOrg } from './factories.js'

const t = useTestApp()
const org = useOrg(t)

describe('a new row', () => {
  it('has updated_at equal to its created_at, whatever created_at it got (one stamp, not two clock readings)', async () => {
    const db = t.database.db
    const createdAt = new Date('2020-02-02T02:02:02.020Z')
    const stamped = await db
      .insertInto('ships')
      .values({ id: uuidv7(), organization_id: org.id, name: 'Stamped', imo_number: nextImo(), created_at: createdAt })
      .returning(['created_at', 'updated_at'])
      .executeTakeFirstOrThrow()
    expect(stamped).toEqual({ created_at: createdAt, updated_at: createdAt })

    const defaulted = await db
      .insertInto('ships')
      .values({ id: uuidv7(), organization_id: org.id, name: 'Defaulted', imo_number: nextImo() })
      .returning(['created_at', 'updated_at'])
      .executeTakeFirstOrThrow()
    expect(defaulted.updated_at).toEqual(defaulted.created_at)
  })

  it('keeps its own updated_at on later updates', async () => {
    const ship = (await org.admin.api.post('/api/v1/shared/ships', { name: 'Later', imoNumber: nextImo() })).body
    const db = t.database.db
    const later = new Date('2030-03-03T03:03:03.030Z')
    const row = await db
      .updateTable('ships')
      .set({ updated_at: later })
      .where('id', '=', ship.id)
      .returning(['created_at', 'updated_at'])
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ created_at: new Date(ship.createdAt), updated_at: later })
  })
})
