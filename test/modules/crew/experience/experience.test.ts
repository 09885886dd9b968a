import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg } from '../../../factories.js'
import { historyOf, UUID } from '../../../fixtures/crew-records.js'

const t = useTestApp()

const list = (userId: string) => `/api/v1/crew/users/${userId}/experience`
const item = (id: string) => `/api/v1/crew/experience/${id}`
const newOrg = () => createOrg(t.app, t.database.db)
const row = {
  companyName: 'Maersk Line',
  position: 'Second Officer',
  shipType: 'Container ship',
  startDate: '2018-03-01',
  endDate: '2020-08-31',
}

describe('create experience (spec endpoint 3)', () => {
  it('answers 201 with every field and a verification not yet submitted', async () => {
    const org = await newOrg()
    const res = await org.crew.api.post(list(org.crew.id), { ...row, notes: 'Asia–Europe loop' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      ...row,
      notes: 'Asia–Europe loop',
      source: 'manual',
      assignmentId: null,
      verification: { targetType: 'experience', targetId: res.body.id, status: 'not_submitted', rejectionReason: null, reviewedAt: null },
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
    })
    expect((await org.crew.api.get(list(org.crew.id))).body).toEqual([res.body])
    expect(await historyOf(t.database.db, res.body.id)).toEqual([
      {
        target_type: 'experience',
        from_status: null,
        to_status: 'not_submitted',
        action: 'create',
        actor_user_id: org.crew.id,
        reason: null,
      },
    ])
  })

  it('requires companyName, position and startDate; the rest is optional and null', async () => {
    const org = await newOrg()
    const missing = await org.crew.api.post(list(org.crew.id), { shipType: 'Tanker' })
    expect(missing.status).toBe(422)
    expect(missing.body.detail).toEqual([
      { loc: ['body', 'companyName'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'position'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'startDate'], msg: 'Field required', type: 'missing' },
    ])
    const minimal = await org.crew.api.post(list(org.crew.id), { companyName: 'X', position: 'Cook', startDate: '2021-01-01' })
    expect(minimal.status).toBe(201)
    expect(minimal.body).toEqual({
      id: expect.stringMatching(UUID),
      companyName: 'X',
      position: 'Cook',
      shipType: null,
      startDate: '2021-01-01',
      endDate: null,
      notes: null,
      source: 'manual',
      assignmentId: null,
      verification: {
        targetType: 'experience',
        targetId: minimal.body.id,
        status: 'not_submitted',
        rejectionReason: null,
        reviewedAt: null,
      },
      createdAt: expect.any(String),
      updatedAt: minimal.body.createdAt,
    })
  })

  it('checks lengths, types and formats together', async () => {
    const org = await newOrg()
    const res = await org.crew.api.post(list(org.crew.id), {
      companyName: '',
      position: 'p'.repeat(301),
      startDate: '01/02/2020',
      endDate: 5,
    })
    expect(res.body.detail).toEqual([
      { loc: ['body', 'companyName'], msg: expect.any(String), type: 'string_too_short' },
      { loc: ['body', 'position'], msg: expect.any(String), type: 'string_too_long' },
      { loc: ['body', 'startDate'], msg: expect.any(String), type: 'date_parsing' },
      { loc: ['body', 'endDate'], msg: expect.any(String), type: 'string_type' },
    ])
  })

  it('refuses an end date before the start date at endDate; the same day is fine', async () => {
    const org = await newOrg()
    const res = await org.crew.api.post(list(org.crew.id), { ...row, startDate: '2020-01-02', endDate: '2020-01-01' })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([{ loc: ['body', 'endDate'], msg: expect.any(String), type: 'value_error' }])
    expect((await org.crew.api.get(list(org.crew.id))).body).toEqual([])
    expect((await org.crew.api.post(list(org.crew.id), { ...row, startDate: '2020-01-01', endDate: '2020-01-01' })).status).toBe(201)
  })
})

describe('list, update, delete', () => {
  it('lists the most recent start date first', async () => {
    const org = await newOrg()
    for (const startDate of ['2015-01-01', '2021-06-01', '2018-02-01']) {
      await org.crew.api.post(list(org.crew.id), { ...row, startDate, endDate: null })
    }
    const res = await org.officeEmployee.api.get(list(org.crew.id))
    expect(res.body.map((e: { startDate: string }) => e.startDate)).toEqual(['2021-06-01', '2018-02-01', '2015-01-01'])
  })

  it('PATCH: omitted unchanged, null clears optional fields, required fields cannot be null', async () => {
    const org = await newOrg()
    const created = (await org.crew.api.post(list(org.crew.id), row)).body
    const res = await org.crew.api.patch(item(created.id), { endDate: null, shipType: null, position: 'Chief Officer' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...created, endDate: null, shipType: null, position: 'Chief Officer', updatedAt: expect.any(String) })
    const nulls = await org.crew.api.patch(item(created.id), { companyName: null, startDate: null })
    expect(nulls.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([
      ['body', 'companyName'],
      ['body', 'startDate'],
    ])
    expect((await org.crew.api.patch(item(created.id), {})).body).toEqual(res.body)
    expect((await org.crew.api.get(list(org.crew.id))).body).toEqual([res.body])
  })

  it('PATCH names the date it sent that breaks the order', async () => {
    const org = await newOrg()
    const created = (await org.crew.api.post(list(org.crew.id), row)).body
    const locOf = async (body: object) => (await org.crew.api.patch(item(created.id), body)).body.detail[0].loc
    expect(await locOf({ startDate: '2021-01-01' })).toEqual(['body', 'startDate'])
    expect(await locOf({ endDate: '2017-01-01' })).toEqual(['body', 'endDate'])
    expect(await locOf({ startDate: '2022-01-01', endDate: '2021-01-01' })).toEqual(['body', 'endDate'])
  })

  it('DELETE answers 204 and the row is gone', async () => {
    const org = await newOrg()
    const created = (await org.crew.api.post(list(org.crew.id), row)).body
    expect((await org.crew.api.delete(item(created.id))).status).toBe(204)
    expect((await org.crew.api.get(list(org.crew.id))).body).toEqual([])
    expect((await org.crew.api.patch(item(created.id), { notes: 'x' })).status).toBe(404)
    expect((await org.crew.api.delete(item(created.id))).status).toBe(404)
  })
})

describe('access', () => {
  it('keeps crew to their own rows, office employees to reading, other organizations out', async () => {
    const org = await newOrg()
    const other = await newOrg()
    const mate = await org.addUser('crew')
    const created = (await org.crew.api.post(list(org.crew.id), row)).body
    expect((await mate.api.get(list(org.crew.id))).status).toBe(404)
    expect((await mate.api.post(list(org.crew.id), row)).status).toBe(404)
    expect((await mate.api.patch(item(created.id), { notes: 'x' })).status).toBe(404)
    expect((await mate.api.delete(item(created.id))).status).toBe(404)
    expect((await org.officeEmployee.api.get(list(org.crew.id))).status).toBe(200)
    expect((await org.officeEmployee.api.post(list(org.crew.id), row)).status).toBe(403)
    expect((await org.officeEmployee.api.patch(item(created.id), { notes: 'x' })).status).toBe(403)
    expect((await org.officeEmployee.api.delete(item(created.id))).status).toBe(403)
    expect((await org.officeAdmin.api.patch(item(created.id), { notes: 'checked' })).status).toBe(200)
    expect((await other.admin.api.get(list(org.crew.id))).status).toBe(404)
    expect((await other.admin.api.patch(item(created.id), { notes: 'x' })).status).toBe(404)
    expect((await other.admin.api.delete(item(created.id))).status).toBe(404)
    const learnOnly = await createOrg(t.app, t.database.db, { products: ['learn'] })
    expect((await learnOnly.crew.api.post(list(learnOnly.crew.id), row)).status).toBe(403)
    expect((await org.crew.api.get(list(org.crew.id))).body).toEqual([{ ...created, notes: 'checked', updatedAt: expect.any(String) }])
  })
})
