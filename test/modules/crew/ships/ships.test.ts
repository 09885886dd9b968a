import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, nextImo, useOrg } from '../../../factories.js'

const t = useTestApp()
const org = useOrg(t)

describe('ships', () => {
  it('creates a ship, normalizing "IMO 9074729"', async () => {
    const res = await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Test', imoNumber: 'IMO 9074729' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'MV Test',
      imoNumber: '9074729',
      mmsi: null,
      callSign: null,
      flag: null,
      portOfRegistry: null,
      shipType: null,
      grossTonnage: null,
      propulsionPowerKw: null,
      createdAt: expect.any(String),
    })
    const again = await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Copy', imoNumber: '9074729' })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ detail: expect.any(String) })
  })

  it('rejects a bad IMO check digit together with other problems', async () => {
    const res = await org.admin.api.post('/api/v1/shared/ships', { name: 5, imoNumber: '9074728' })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      { loc: ['body', 'name'], msg: expect.any(String), type: 'string_type' },
      { loc: ['body', 'imoNumber'], msg: expect.any(String), type: 'value_error' },
    ])
  })

  it('lets every role list and read ships but only admins write (403, nothing changes)', async () => {
    const ship = (await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Listed', imoNumber: nextImo() })).body
    for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
      const list = await user.api.get('/api/v1/shared/ships?limit=1000')
      expect(list.status).toBe(200)
      expect(list.body.items).toContainEqual(ship)
      expect((await user.api.get(`/api/v1/shared/ships/${ship.id}`)).body).toEqual(ship)
      expect((await user.api.post('/api/v1/shared/ships', { name: 'X', imoNumber: nextImo() })).status).toBe(403)
      expect((await user.api.patch(`/api/v1/shared/ships/${ship.id}`, { name: 'X' })).status).toBe(403)
      expect((await user.api.delete(`/api/v1/shared/ships/${ship.id}`)).status).toBe(403)
    }
    expect((await org.admin.api.get(`/api/v1/shared/ships/${ship.id}`)).body).toEqual(ship)
  })

  it('PATCH changes what is sent (200), null clears, {} changes nothing; DELETE answers 204', async () => {
    const ship = (await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Patch', imoNumber: nextImo(), flag: 'Panama' })).body
    const url = `/api/v1/shared/ships/${ship.id}`
    const imoNumber = nextImo()
    const res = await org.admin.api.patch(url, { name: 'MV Patched', imoNumber: `IMO ${imoNumber}`, flag: null, callSign: 'H3AB' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...ship, name: 'MV Patched', imoNumber, flag: null, callSign: 'H3AB' })
    expect((await org.admin.api.get(url)).body).toEqual(res.body)
    const empty = await org.admin.api.patch(url, {})
    expect(empty.status).toBe(200)
    expect(empty.body).toEqual(res.body)
    const deleted = await org.admin.api.delete(url)
    expect(deleted.status).toBe(204)
    expect(deleted.text).toBe('')
    expect((await org.admin.api.get(url)).body).toEqual({ detail: 'Ship not found' })
  })

  it("hides another organization's ship (404) and keeps IMO numbers unique per organization only", async () => {
    const other = await createOrg(t.app, t.database.db)
    const imoNumber = nextImo()
    const ship = (await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Ours', imoNumber })).body
    const url = `/api/v1/shared/ships/${ship.id}`
    for (const res of [
      await other.admin.api.get(url),
      await other.admin.api.patch(url, { name: 'Theirs' }),
      await other.admin.api.delete(url),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ detail: 'Ship not found' })
    }
    expect((await other.admin.api.post('/api/v1/shared/ships', { name: 'MV Theirs', imoNumber })).status).toBe(201)
    expect((await org.admin.api.get(url)).body).toEqual(ship)
  })
})
