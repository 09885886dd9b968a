import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg } from '../../../factories.js'
import { UUID } from '../../../fixtures/crew-records.js'

const t = useTestApp()

const list = (userId: string) => `/api/v1/crew/users/${userId}/next-of-kin`
const item = (id: string) => `/api/v1/crew/next-of-kin/${id}`
const newOrg = () => createOrg(t.app, t.database.db)
const contact = {
  relationship: 'spouse',
  fullName: 'Maria Santos',
  phone: '+63 917 555 0101',
  email: 'maria@example.test',
  address: 'Manila',
}

describe('next of kin', () => {
  it('creates (201), lists in the order added, updates and deletes', async () => {
    const org = await newOrg()
    const res = await org.crew.api.post(list(org.crew.id), contact)
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      ...contact,
      createdAt: expect.any(String),
      updatedAt: res.body.createdAt,
    })
    const second = (await org.crew.api.post(list(org.crew.id), { relationship: 'father', fullName: 'Jose Santos' })).body
    expect(second).toMatchObject({ phone: null, email: null, address: null })
    expect((await org.crew.api.get(list(org.crew.id))).body).toEqual([res.body, second])

    const patched = await org.crew.api.patch(item(res.body.id), { phone: null, address: 'Cebu' })
    expect(patched.status).toBe(200)
    expect(patched.body).toEqual({ ...res.body, phone: null, address: 'Cebu', updatedAt: expect.any(String) })
    expect((await org.crew.api.patch(item(res.body.id), {})).body).toEqual(patched.body)

    expect((await org.crew.api.delete(item(second.id))).status).toBe(204)
    expect((await org.crew.api.get(list(org.crew.id))).body).toEqual([patched.body])
    expect((await org.crew.api.delete(item(second.id))).status).toBe(404)
  })

  it('validates every field together', async () => {
    const org = await newOrg()
    const res = await org.crew.api.post(list(org.crew.id), { fullName: '', email: 'not-an-email', phone: 12 })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      { loc: ['body', 'relationship'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'fullName'], msg: expect.any(String), type: 'string_too_short' },
      { loc: ['body', 'phone'], msg: expect.any(String), type: 'string_type' },
      { loc: ['body', 'email'], msg: expect.any(String), type: 'value_error' },
    ])
    const created = (await org.crew.api.post(list(org.crew.id), contact)).body
    expect((await org.crew.api.patch(item(created.id), { fullName: null })).status).toBe(422)
  })

  it('keeps crew to their own contacts, office employees to reading, other organizations out', async () => {
    const org = await newOrg()
    const other = await newOrg()
    const mate = await org.addUser('crew')
    const created = (await org.crew.api.post(list(org.crew.id), contact)).body
    expect((await mate.api.get(list(org.crew.id))).status).toBe(404)
    expect((await mate.api.patch(item(created.id), { address: 'x' })).status).toBe(404)
    expect((await mate.api.delete(item(created.id))).status).toBe(404)
    expect((await org.officeEmployee.api.get(list(org.crew.id))).body).toEqual([created])
    expect((await org.officeEmployee.api.post(list(org.crew.id), contact)).status).toBe(403)
    expect((await org.officeEmployee.api.patch(item(created.id), { address: 'x' })).status).toBe(403)
    expect((await org.officeEmployee.api.delete(item(created.id))).status).toBe(403)
    expect((await org.admin.api.post(list(org.crew.id), contact)).status).toBe(201)
    expect((await other.admin.api.get(list(org.crew.id))).status).toBe(404)
    expect((await other.admin.api.patch(item(created.id), { address: 'x' })).status).toBe(404)
    expect((await other.admin.api.delete(item(created.id))).status).toBe(404)
    expect((await org.crew.api.get(list(org.crew.id))).body[0]).toEqual(created)
  })
})
