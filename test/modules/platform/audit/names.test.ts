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
