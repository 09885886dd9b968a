import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, type TestOrg, type TestUser } from '../../../factories.js'

const t = useTestApp()

const newOrg = () => createOrg(t.app, t.database.db)
const rollup = (caller: TestUser, userId: string) => caller.api.get(`/api/v1/crew/users/${userId}/verification`)
const queue = (caller: TestUser, query = '') => caller.api.get(`/api/v1/crew/verifications${query}`)

async function addDocument(owner: TestUser, number = 'P1'): Promise<string> {
  return (await owner.api.post(`/api/v1/crew/users/${owner.id}/identity-documents`, { documentType: 'passport', documentNumber: number }))
    .body.id
}
async function addCertificate(owner: TestUser): Promise<string> {
  return (await owner.api.post(`/api/v1/crew/users/${owner.id}/certificates`, { certificateType: 'stcw_basic_safety' })).body.id
}
async function addExperience(owner: TestUser): Promise<string> {
  return (
    await owner.api.post(`/api/v1/crew/users/${owner.id}/experience`, { companyName: 'CMA CGM', position: 'AB', startDate: '2019-05-01' })
  ).body.id
}
const act = (org: TestOrg, path: string, id: string, action: 'submit' | 'verify' | 'reject') =>
  org.admin.api.post(`/api/v1/crew/${path}/${id}/${action}`, action === 'reject' ? { reason: 'Expired scan' } : undefined)

/** A pending passport numbered P1 as the rollup lists it, with its number and no reviewer yet. */
const PENDING_PASSPORT = {
  targetType: 'identity_document',
  status: 'pending',
  rejectionReason: null,
  reviewedAt: null,
  recordType: 'passport',
  recordNumber: 'P1',
  reviewerName: null,
}

describe('profile rollup', () => {
  it('is incomplete with no items', async () => {
    const org = await newOrg()
    const res = await rollup(org.crew, org.crew.id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ state: 'incomplete', items: [] })
  })

  it('goes in_review → approved → incomplete → action_needed as items move', async () => {
    const org = await newOrg()
    const docId = await addDocument(org.crew)
    const res = await rollup(org.crew, org.crew.id)
    expect(res.body).toEqual({
      state: 'in_review',
      items: [{ ...PENDING_PASSPORT, targetId: docId }],
    })
    await act(org, 'identity-documents', docId, 'verify')
    expect((await rollup(org.crew, org.crew.id)).body.state).toBe('approved')
    const expId = await addExperience(org.crew)
    const incomplete = await rollup(org.officeEmployee, org.crew.id)
    expect(incomplete.body.state).toBe('incomplete')
    expect(incomplete.body.items.map((i: { targetId: string; status: string }) => [i.targetId, i.status])).toEqual([
      [docId, 'verified'],
      [expId, 'not_submitted'],
    ])
    await act(org, 'experience', expId, 'submit')
    expect((await rollup(org.crew, org.crew.id)).body.state).toBe('in_review')
    await act(org, 'experience', expId, 'reject')
    const pendingDoc = await addDocument(org.crew, 'P2')
    expect((await rollup(org.crew, org.crew.id)).body.state).toBe('action_needed')
    await act(org, 'experience', expId, 'submit')
    await act(org, 'experience', expId, 'verify')
    await act(org, 'identity-documents', pendingDoc, 'verify')
    const approved = await rollup(org.crew, org.crew.id)
    expect(approved.body.state).toBe('approved')
    expect(approved.body.items).toHaveLength(3)
  })

  it('is not approved without an identity document, however verified the rest', async () => {
    const org = await newOrg()
    const certId = await addCertificate(org.crew)
    await act(org, 'certificates', certId, 'verify')
    const expId = await addExperience(org.crew)
    await act(org, 'experience', expId, 'submit')
    await act(org, 'experience', expId, 'verify')
    expect((await rollup(org.crew, org.crew.id)).body.state).toBe('incomplete')
  })

  it("is a 404 for another crew member's profile, another organization's user and a missing user", async () => {
    const org = await newOrg()
    const other = await newOrg()
    const mate = await org.addUser('crew')
    expect((await rollup(org.crew, mate.id)).status).toBe(404)
    expect((await rollup(other.admin, org.crew.id)).body).toEqual({ detail: 'User not found' })
    expect((await rollup(org.admin, '0190a0a0-0000-7000-8000-000000000000')).status).toBe(404)
    expect((await rollup(org.admin, mate.id)).status).toBe(200)
  })

  it('answers crew naming themselves with an upper-case id', async () => {
    const org = await newOrg()
    const docId = await addDocument(org.crew)
    const res = await rollup(org.crew, org.crew.id.toUpperCase())
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      state: 'in_review',
      items: [{ ...PENDING_PASSPORT, targetId: docId }],
    })
  })
})

describe('review queue', () => {
  it('lists pending items oldest submission first, in the contract shape', async () => {
    const org = await newOrg()
    const mate = await org.addUser('crew')
    const first = await addDocument(org.crew)
    const second = await addCertificate(mate)
    const exp = await addExperience(org.crew)
    const third = await addDocument(mate)
    await act(org, 'experience', exp, 'submit')
    const res = await queue(org.officeEmployee)
    expect(res.status).toBe(200)
    expect(res.body.items.map((i: { targetId: string }) => i.targetId)).toEqual([first, second, third, exp])
    expect(res.body.items[0]).toEqual({
      targetType: 'identity_document',
      targetId: first,
      userId: org.crew.id,
      status: 'pending',
      submittedAt: expect.any(String),
      rejectionReason: null,
      reviewedAt: null,
      userName: 'Test crew',
      recordType: 'passport',
      recordNumber: 'P1',
      reviewerName: null,
    })
    expect(res.body).toMatchObject({ hasMore: false, nextCursor: null, totalCount: null })
  })

  it('moves a resubmitted item to the back and filters by any status', async () => {
    const org = await newOrg()
    const a = await addDocument(org.crew, 'A')
    const b = await addDocument(org.crew, 'B')
    await act(org, 'identity-documents', a, 'reject')
    expect((await queue(org.admin)).body.items.map((i: { targetId: string }) => i.targetId)).toEqual([b])
    const rejected = (await queue(org.admin, '?status=rejected')).body.items
    expect(rejected).toEqual([
      {
        targetType: 'identity_document',
        targetId: a,
        userId: org.crew.id,
        status: 'rejected',
        submittedAt: expect.any(String),
        rejectionReason: 'Expired scan',
        reviewedAt: expect.any(String),
        userName: 'Test crew',
        recordType: 'passport',
        recordNumber: 'A',
        reviewerName: 'Test admin',
      },
    ])
    await org.crew.api.post(`/api/v1/crew/identity-documents/${a}/submit`)
    expect((await queue(org.admin)).body.items.map((i: { targetId: string }) => i.targetId)).toEqual([b, a])
    const exp = await addExperience(org.crew)
    const drafts = (await queue(org.admin, '?status=not_submitted')).body.items
    expect(drafts).toEqual([
      {
        targetType: 'experience',
        targetId: exp,
        userId: org.crew.id,
        status: 'not_submitted',
        submittedAt: null,
        rejectionReason: null,
        reviewedAt: null,
        userName: 'Test crew',
        recordType: null,
        recordNumber: 'CMA CGM',
        reviewerName: null,
      },
    ])
    expect((await queue(org.admin, '?status=done')).status).toBe(422)
  })

  it('pages with a cursor and counts on request', async () => {
    const org = await newOrg()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push(await addDocument(org.crew, `N${i}`))
    const seen: string[] = []
    let cursor = ''
    for (let page = 0; page < 3; page++) {
      const res = await queue(org.admin, `?limit=2&include_count=true${cursor ? `&cursor=${cursor}` : ''}`)
      expect(res.body.totalCount).toBe(5)
      seen.push(...res.body.items.map((i: { targetId: string }) => i.targetId))
      expect(res.body.hasMore).toBe(page < 2)
      cursor = res.body.nextCursor
    }
    expect(cursor).toBeNull()
    expect(seen).toEqual(ids)
    const bad = await queue(org.admin, '?cursor=garbage')
    expect(bad.status).toBe(422)
    expect(bad.body.detail).toEqual([{ loc: ['query', 'cursor'], msg: expect.any(String), type: 'value_error' }])
  })

  it("searches the owner's name and e-mail", async () => {
    const org = await newOrg()
    const ada = await org.addUser('crew', { firstName: 'Ada', lastName: 'Lovelace' })
    const adaDoc = await addDocument(ada)
    await addDocument(org.crew)
    const res = await queue(org.admin, '?search=ada%20love')
    expect(res.body.items.map((i: { targetId: string }) => i.targetId)).toEqual([adaDoc])
  })

  it('is for staff of the organization only', async () => {
    const org = await newOrg()
    const other = await newOrg()
    await addDocument(org.crew)
    expect(await queue(org.crew)).toMatchObject({ status: 403, body: { detail: 'Not enough permissions' } })
    expect((await queue(other.admin)).body.items).toEqual([])
    expect((await queue(org.officeAdmin)).body.items).toHaveLength(1)
  })
})
