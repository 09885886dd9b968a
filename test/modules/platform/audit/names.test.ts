import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { nextImo, useOrg } from '../../../factories.js'

const t = useTestApp()
const org = useOrg(t)

const AUDIT = '/api/v1/shared/audit-events'
const eventsOf = async (targetId: string) => (await org.admin.api.get(`${AUDIT}?target_id=${targetId}`)).body.items
const names = (e: Record<string, unknown>) => [e.type, e.actorName, e.personId, e.personName, e.targetKind, e.targetName]

describe('audit events: people and records by name', () => {
  it('names the actor, the person and the record; a deleted record from its last shape', async () => {
    const crew = await org.addUser('crew', { firstName: 'Ana', lastName: 'Silva' })
    const created = await org.officeAdmin.api.post(`/api/v1/crew/users/${crew.id}/identity-documents`, {
      documentType: 'passport',
      documentNumber: 'P7654321',
    })
    expect(created.status).toBe(201)
    const id = created.body.id
    expect((await eventsOf(id)).map(names)).toEqual([
      ['identity_document.created', 'Test office_admin', crew.id, 'Ana Silva', 'passport', 'P7654321'],
    ])
    expect((await org.admin.api.delete(`/api/v1/crew/identity-documents/${id}`)).status).toBe(204)
    // The record's wire shape does not name its owner, so once it is gone only the record itself is named.
    expect((await eventsOf(id)).map(names)).toEqual([
      ['identity_document.deleted', 'Test admin', null, null, 'passport', 'P7654321'],
      ['identity_document.created', 'Test office_admin', null, null, 'passport', 'P7654321'],
    ])
  })

  it('names ships, assignments by their ship and person, and users', async () => {
    const crew = await org.addUser('crew', { firstName: 'Li', lastName: 'Wei' })
    const ship = (await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Names', imoNumber: nextImo() })).body
    const assignment = (await org.admin.api.post('/api/v1/assignments/', { userId: crew.id, shipId: ship.id, role: 'Cook' })).body
    await org.admin.api.patch(`/api/v1/shared/users/${crew.id}`, { lastName: 'Wei-Chen' })
    expect((await eventsOf(ship.id)).map(names)).toEqual([['ship.created', 'Test admin', null, null, null, 'MV Names']])
    expect((await eventsOf(assignment.id)).map(names)).toEqual([
      ['assignment.created', 'Test admin', crew.id, 'Li Wei-Chen', null, 'MV Names'],
    ])
    expect((await eventsOf(crew.id)).map(names)).toEqual([['user.updated', 'Test admin', crew.id, 'Li Wei-Chen', null, 'Li Wei-Chen']])
  })
})

describe('audit events: filtered by person and by target name', () => {
  const other = useOrg(t)

  it('keeps the events concerning one person, and those whose target name contains a text, counted and paged', async () => {
    const crew = await org.addUser('crew', { firstName: 'Rui', lastName: 'Costa' })
    const ship = (await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Filter_Ship 100%', imoNumber: nextImo() })).body
    const assignment = (await org.admin.api.post('/api/v1/assignments/', { userId: crew.id, shipId: ship.id, role: 'Cook' })).body
    const doc = (
      await org.officeAdmin.api.post(`/api/v1/crew/users/${crew.id}/identity-documents`, {
        documentType: 'passport',
        documentNumber: 'RC0001',
      })
    ).body
    // Another organization's ship of the same name is never listed.
    await other.admin.api.post('/api/v1/shared/ships', { name: 'MV Filter_Ship 100%', imoNumber: nextImo() })

    const ofPerson = await org.admin.api.get(`${AUDIT}?person_id=${crew.id}&include_count=true`)
    expect(ofPerson.status).toBe(200)
    // (The factory's user is made without an event.)
    expect(ofPerson.body.items.map((e: { target: { id: string } }) => e.target.id)).toEqual([doc.id, assignment.id])
    expect(ofPerson.body.totalCount).toBe(2)

    // `_` and `%` are matched as themselves, case-insensitively.
    const byName = await org.admin.api.get(`${AUDIT}?target_name=${encodeURIComponent('filter_ship 100%')}&include_count=true`)
    expect(byName.body.items.map((e: { type: string }) => e.type)).toEqual(['assignment.created', 'ship.created'])
    expect(byName.body.totalCount).toBe(2)
    expect((await org.admin.api.get(`${AUDIT}?target_name=${encodeURIComponent('filterXship')}`)).body.items).toEqual([])

    const first = await org.admin.api.get(`${AUDIT}?person_id=${crew.id}&limit=1`)
    const second = await org.admin.api.get(`${AUDIT}?person_id=${crew.id}&limit=1&cursor=${first.body.nextCursor}`)
    expect([...first.body.items, ...second.body.items].map((e: { target: { id: string } }) => e.target.id)).toEqual([
      doc.id,
      assignment.id,
    ])
    expect(second.body.nextCursor).toBeNull()
    expect((await org.admin.api.get(`${AUDIT}?person_id=not-a-uuid`)).status).toBe(422)
  })
})
