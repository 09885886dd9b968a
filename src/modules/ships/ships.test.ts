import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../test/app.js'
import { createOrg, nextImo, type TestOrg } from '../../../test/factories.js'

let t: TestApp
let org: TestOrg
beforeAll(async () => {
  t = await buildTestApp()
  org = await createOrg(t.app, t.database.db)
})
afterAll(() => t.app.close())

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

  it('lets every role list ships but only admins write', async () => {
    await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Listed', imoNumber: nextImo() })
    for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
      expect((await user.api.get('/api/v1/shared/ships')).status).toBe(200)
      expect((await user.api.post('/api/v1/shared/ships', { name: 'X', imoNumber: nextImo() })).status).toBe(403)
    }
  })
})
