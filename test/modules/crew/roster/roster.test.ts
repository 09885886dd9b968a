import { v7 as uuidv7 } from 'uuid'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, nextImo, type TestUser, useOrg } from '../../../factories.js'
import { addDays, todayUtc } from '../../../../src/lib/dates.js'

const t = useTestApp()
const org = useOrg(t)
let users: Record<'approved' | 'review' | 'action' | 'draft' | 'ended' | 'suspended', TestUser>
beforeAll(async () => {
  const add = (name: string) => org.addUser('crew', { firstName: name, lastName: 'Sailor' })
  users = {
    approved: await add('Approved'),
    review: await add('Review'),
    action: await add('Action'),
    draft: await add('Draft'),
    ended: await add('Ended'),
    suspended: await add('Suspended'),
  }
  const docOf = async (user: TestUser) =>
    (await user.api.post(`/api/v1/crew/users/${user.id}/identity-documents`, { documentType: 'passport' })).body.id as string
  await org.admin.api.post(`/api/v1/crew/identity-documents/${await docOf(users.approved)}/verify`)
  await docOf(users.review)
  await org.admin.api.post(`/api/v1/crew/identity-documents/${await docOf(users.action)}/reject`, { reason: 'Blurred' })
  await users.draft.api.post(`/api/v1/crew/users/${users.draft.id}/experience`, {
    companyName: 'A',
    position: 'B',
    startDate: '2020-01-01',
  })
  await org.admin.api.delete(`/api/v1/shared/users/${users.suspended.id}`)
  // Assignments belong to another module: rows are written directly.
  const shipId = uuidv7()
  await t.database.db
    .insertInto('ships')
    .values({ id: shipId, organization_id: org.id, name: 'MV Roster', imo_number: nextImo() })
    .execute()
  const assign = (user: TestUser, endDate: string | null) =>
    t.database.db
      .insertInto('assignments')
      .values({ id: uuidv7(), organization_id: org.id, user_id: user.id, ship_id: shipId, role: 'AB', end_date: endDate })
      .execute()
  await assign(users.approved, null)
  await assign(users.review, addDays(todayUtc(), 1))
  await assign(users.ended, addDays(todayUtc(), -1))
})

const roster = async (query = '') => {
  const res = await org.officeEmployee.api.get(`/api/v1/crew/roster${query}`)
  expect(res.status).toBe(200)
  return res.body
}
const namesOf = (page: { items: { firstName: string }[] }) => page.items.map((u) => u.firstName).sort()

describe('crew roster', () => {
  it('lists the users of the organization, newest first, with their verification state', async () => {
    const page = await roster('?limit=100')
    expect(page.items).toHaveLength(10)
    expect(page.items[0]).toEqual({
      id: users.suspended.id,
      email: users.suspended.email,
      firstName: 'Suspended',
      lastName: 'Sailor',
      role: 'crew',
      state: 'suspended',
      lastLogin: null,
      createdAt: expect.any(String),
      verificationState: 'incomplete',
    })
    const stateOf = (user: TestUser) => page.items.find((u: { id: string }) => u.id === user.id).verificationState
    expect([stateOf(users.approved), stateOf(users.review), stateOf(users.action), stateOf(users.draft)]).toEqual([
      'approved',
      'in_review',
      'action_needed',
      'incomplete',
    ])
  })

  it.each([
    ['verification_state=approved', ['Approved']],
    ['verification_state=in_review', ['Review']],
    ['verification_state=action_needed', ['Action']],
    ['verification_state=incomplete&role=crew', ['Draft', 'Ended', 'Suspended', 'Test']],
    ['assignment_status=assigned', ['Approved', 'Review']],
    ['assignment_status=unassigned&role=crew', ['Action', 'Draft', 'Ended', 'Suspended', 'Test']],
    ['state=suspended', ['Suspended']],
    ['role=crew&state=active&assignment_status=unassigned&verification_state=incomplete', ['Draft', 'Ended', 'Test']],
    ['search=review%20sail', ['Review']],
  ])('filters %s', async (query, names) => {
    expect(namesOf(await roster(`?${query}`))).toEqual(names)
  })

  it('filters by role and pages with a cursor', async () => {
    expect((await roster('?role=office_employee')).items.map((u: { id: string }) => u.id)).toEqual([org.officeEmployee.id])
    const first = await roster('?role=crew&limit=4&include_count=true')
    expect(first).toMatchObject({ hasMore: true, totalCount: 7 })
    const second = await roster(`?role=crew&limit=4&cursor=${first.nextCursor}`)
    expect(second).toMatchObject({ hasMore: false, nextCursor: null, totalCount: null })
    expect([...first.items, ...second.items].map((u: { id: string }) => u.id)).toEqual(
      (await roster('?role=crew&limit=100')).items.map((u: { id: string }) => u.id),
    )
  })

  it('refuses bad filters, crew callers and reaches no other organization', async () => {
    const bad = await org.admin.api.get('/api/v1/crew/roster?verification_state=done&assignment_status=maybe')
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([
      ['query', 'verification_state'],
      ['query', 'assignment_status'],
    ])
    expect((await org.crew.api.get('/api/v1/crew/roster')).status).toBe(403)
    const other = await createOrg(t.app, t.database.db)
    const theirs = (await other.admin.api.get('/api/v1/crew/roster')).body.items.map((u: { id: string }) => u.id)
    expect(theirs.sort()).toEqual([other.admin.id, other.officeAdmin.id, other.officeEmployee.id, other.crew.id].sort())
    const learnOnly = await createOrg(t.app, t.database.db, { products: ['learn'] })
    expect((await learnOnly.admin.api.get('/api/v1/crew/roster')).status).toBe(403)
  })
})
