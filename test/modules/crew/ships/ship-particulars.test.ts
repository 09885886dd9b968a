import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { nextImo, useOrg } from '../../../factories.js'

const t = useTestApp()
const org = useOrg(t)

const particulars = { shipType: 'oil_tanker', grossTonnage: 62000, propulsionPowerKw: 13560 }

async function stored(shipId: string) {
  return t.database.db
    .selectFrom('ships')
    .select(['ship_type', 'gross_tonnage', 'propulsion_power_kw'])
    .where('id', '=', shipId)
    .executeTakeFirstOrThrow()
}

describe('ships: type, gross tonnage and propulsion power (DECISIONS §14)', () => {
  it('creates a ship with them, shows them on read and list, and stores them', async () => {
    const res = await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Tanker', imoNumber: nextImo(), ...particulars })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject(particulars)
    expect((await org.crew.api.get(`/api/v1/shared/ships/${res.body.id}`)).body).toEqual(res.body)
    expect((await org.crew.api.get('/api/v1/shared/ships?limit=1000')).body.items).toContainEqual(res.body)
    expect(await stored(res.body.id)).toEqual({ ship_type: 'oil_tanker', gross_tonnage: 62000, propulsion_power_kw: 13560 })
  })

  it('keeps clients that send none of them working: all three null', async () => {
    const res = await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Plain', imoNumber: nextImo() })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ shipType: null, grossTonnage: null, propulsionPowerKw: null })
  })

  it('PATCH sets, changes and clears them, with one ship.updated event of the changes', async () => {
    const ship = (await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Patch', imoNumber: nextImo(), ...particulars })).body
    const url = `/api/v1/shared/ships/${ship.id}`
    const res = await org.admin.api.patch(url, { shipType: 'chemical_tanker', grossTonnage: null })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...ship, shipType: 'chemical_tanker', grossTonnage: null })
    expect(await stored(ship.id)).toEqual({ ship_type: 'chemical_tanker', gross_tonnage: null, propulsion_power_kw: 13560 })
    const events = await t.database.db
      .selectFrom('events')
      .select('data')
      .where('target_id', '=', ship.id)
      .where('type', '=', 'ship.updated')
      .execute()
    expect(events.map((event) => event.data)).toEqual([
      { changes: { shipType: ['oil_tanker', 'chemical_tanker'], grossTonnage: [62000, null] } },
    ])
  })

  it('refuses an unknown type and non-positive or non-integer figures, every problem listed, nothing written', async () => {
    const bad = { name: 'MV Bad', imoNumber: nextImo(), shipType: 'yacht', grossTonnage: 0, propulsionPowerKw: 12.5 }
    const res = await org.admin.api.post('/api/v1/shared/ships', bad)
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      { loc: ['body', 'shipType'], msg: expect.any(String), type: 'enum' },
      { loc: ['body', 'grossTonnage'], msg: expect.any(String), type: 'greater_than_equal' },
      { loc: ['body', 'propulsionPowerKw'], msg: expect.any(String), type: 'int_parsing' },
    ])
    const ship = (await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Kept', imoNumber: nextImo(), ...particulars })).body
    const patch = await org.admin.api.patch(`/api/v1/shared/ships/${ship.id}`, { grossTonnage: -5, shipType: 'ro_ro' })
    expect(patch.status).toBe(422)
    expect(patch.body.detail).toEqual([{ loc: ['body', 'grossTonnage'], msg: expect.any(String), type: 'greater_than_equal' }])
    expect(await stored(ship.id)).toEqual({ ship_type: 'oil_tanker', gross_tonnage: 62000, propulsion_power_kw: 13560 })
  })
})
