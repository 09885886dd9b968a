import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, type TestOrg, type TestUser } from '../../../factories.js'
import { historyOf, verificationRow } from '../../../fixtures/crew-records.js'

const t = useTestApp()

type Kind = 'identity-documents' | 'certificates' | 'experience'
type Status = 'not_submitted' | 'pending' | 'verified' | 'rejected'
type Action = 'submit' | 'verify' | 'reject'

const TARGET_TYPES: Record<Kind, string> = {
  'identity-documents': 'identity_document',
  certificates: 'certificate',
  experience: 'experience',
}
const BODIES: Record<Kind, object> = {
  'identity-documents': { documentType: 'passport', documentNumber: 'P1' },
  certificates: { certificateType: 'medical', certificateNumber: 'M1' },
  experience: { companyName: 'Maersk', position: 'Bosun', startDate: '2020-01-01' },
}
/** How to bring a new item to each state. */
const PATHS: Record<Status, Action[]> = {
  not_submitted: [],
  pending: ['submit'],
  verified: ['submit', 'verify'],
  rejected: ['submit', 'reject'],
}

const newOrg = () => createOrg(t.app, t.database.db)
const act = (user: TestUser, kind: Kind, id: string, action: Action, reason = 'Scan is unreadable') =>
  user.api.post(`/api/v1/crew/${kind}/${id}/${action}`, action === 'reject' ? { reason } : undefined)

async function create(org: TestOrg, kind: Kind, owner: TestUser = org.crew): Promise<string> {
  const res = await owner.api.post(`/api/v1/crew/users/${owner.id}/${kind}`, BODIES[kind])
  expect(res.status).toBe(201)
  return res.body.id
}

/** An item of `kind` in `status`; documents and certificates start pending, so they skip the submit. */
async function itemIn(org: TestOrg, kind: Kind, status: Status): Promise<string> {
  const id = await create(org, kind)
  const actions = kind === 'experience' ? PATHS[status] : PATHS[status].filter((a) => a !== 'submit')
  for (const action of actions) expect((await act(org.admin, kind, id, action)).status).toBe(200)
  return id
}

async function currentVerification(org: TestOrg, id: string) {
  const items = (await org.admin.api.get(`/api/v1/crew/users/${org.crew.id}/verification`)).body.items
  // The rollup names the record and the reviewer too; a record's own `verification` carries the rest.
  const {
    recordType: _t,
    recordNumber: _n,
    reviewerName: _r,
    ...verification
  } = items.find((item: { targetId: string }) => item.targetId === id)
  return verification
}

const ALLOWED: [Status, Action, Status][] = [
  ['not_submitted', 'submit', 'pending'],
  ['rejected', 'submit', 'pending'],
  ['pending', 'verify', 'verified'],
  ['pending', 'reject', 'rejected'],
]
const STATUSES: Status[] = ['not_submitted', 'pending', 'verified', 'rejected']
const ACTIONS: Action[] = ['submit', 'verify', 'reject']
const KINDS: Kind[] = ['identity-documents', 'certificates', 'experience']
const MOVES = KINDS.flatMap((kind) =>
  STATUSES.filter((status) => kind === 'experience' || status !== 'not_submitted').flatMap((from) =>
    ACTIONS.map((action) => {
      const to = ALLOWED.find(([f, a]) => f === from && a === action)?.[2] ?? null
      return { kind, from, action, to }
    }),
  ),
)

describe('the verification state machine', () => {
  it.each(MOVES)('$kind: $action from $from → $to', async ({ kind, from, action, to }) => {
    const org = await newOrg()
    const id = await itemIn(org, kind, from)
    const before = await historyOf(t.database.db, id)
    const res = await act(org.admin, kind, id, action)
    if (to === null) {
      expect(res.status).toBe(409)
      expect(res.body).toEqual({ detail: expect.any(String) })
      expect((await currentVerification(org, id)).status).toBe(from)
      expect(await historyOf(t.database.db, id)).toEqual(before)
      return
    }
    expect(res.status).toBe(200)
    const reviewed = to === 'verified' || to === 'rejected'
    expect(res.body).toEqual({
      targetType: TARGET_TYPES[kind],
      targetId: id,
      status: to,
      rejectionReason: to === 'rejected' ? 'Scan is unreadable' : null,
      reviewedAt: reviewed ? expect.any(String) : null,
    })
    expect(await currentVerification(org, id)).toEqual(res.body)
    const row = await verificationRow(t.database.db, id)
    expect(row?.reviewer_user_id).toBe(reviewed ? org.admin.id : null)
    expect((await historyOf(t.database.db, id)).slice(before.length)).toEqual([
      {
        target_type: TARGET_TYPES[kind],
        from_status: from,
        to_status: to,
        action,
        actor_user_id: org.admin.id,
        reason: action === 'reject' ? 'Scan is unreadable' : null,
      },
    ])
  })

  it('sets the review on verify/reject and clears it on the way back to pending', async () => {
    const org = await newOrg()
    const id = await create(org, 'experience')
    const submitted = await act(org.crew, 'experience', id, 'submit')
    expect(submitted.body).toMatchObject({ status: 'pending', rejectionReason: null, reviewedAt: null })
    const beforeReview = Date.now()
    const rejected = await act(org.officeEmployee, 'experience', id, 'reject', 'Dates do not match the discharge book')
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'Dates do not match the discharge book' })
    expect(Date.parse(rejected.body.reviewedAt)).toBeGreaterThanOrEqual(beforeReview - 1000)
    expect(Date.parse(rejected.body.reviewedAt)).toBeLessThanOrEqual(Date.now() + 1000)
    expect((await verificationRow(t.database.db, id))?.reviewer_user_id).toBe(org.officeEmployee.id)
    const resubmitted = await act(org.crew, 'experience', id, 'submit')
    expect(resubmitted.body).toEqual({ targetType: 'experience', targetId: id, status: 'pending', rejectionReason: null, reviewedAt: null })
    const row = await verificationRow(t.database.db, id)
    expect(row).toMatchObject({ reviewer_user_id: null, reviewed_at: null, rejection_reason: null })
    const verified = await act(org.admin, 'experience', id, 'verify')
    expect(verified.body).toMatchObject({ status: 'verified', rejectionReason: null, reviewedAt: expect.any(String) })
    expect((await historyOf(t.database.db, id)).map((e) => [e.from_status, e.to_status, e.action, e.actor_user_id])).toEqual([
      [null, 'not_submitted', 'create', org.crew.id],
      ['not_submitted', 'pending', 'submit', org.crew.id],
      ['pending', 'rejected', 'reject', org.officeEmployee.id],
      ['rejected', 'pending', 'submit', org.crew.id],
      ['pending', 'verified', 'verify', org.admin.id],
    ])
  })

  it('requires a rejection reason of 1 to 1000 characters', async () => {
    const org = await newOrg()
    const id = await create(org, 'identity-documents')
    const url = `/api/v1/crew/identity-documents/${id}/reject`
    expect((await org.admin.api.post(url)).body).toEqual({ detail: [{ loc: ['body', 'reason'], msg: 'Field required', type: 'missing' }] })
    expect((await org.admin.api.post(url, { reason: '' })).body.detail[0].type).toBe('string_too_short')
    expect((await org.admin.api.post(url, { reason: 'x'.repeat(1001) })).body.detail[0].type).toBe('string_too_long')
    expect((await org.admin.api.post(url, { reason: 7 })).body.detail[0].type).toBe('string_type')
    expect((await currentVerification(org, id)).status).toBe('pending')
    const res = await org.admin.api.post(url, { reason: 'x'.repeat(1000) })
    expect(res.status).toBe(200)
    expect(res.body.rejectionReason).toHaveLength(1000)
  })

  it('accepts verify and submit with an empty JSON body', async () => {
    const org = await newOrg()
    const id = await create(org, 'certificates')
    const res = await org.admin.api.post(`/api/v1/crew/certificates/${id}/verify`, '', { 'content-type': 'application/json' })
    expect(res.status).toBe(200)
  })
})

describe('who may review', () => {
  it('lets staff verify and reject, not crew (403); lets crew and managers submit, not office employees (403)', async () => {
    const org = await newOrg()
    const id = await create(org, 'experience')
    expect((await act(org.officeEmployee, 'experience', id, 'submit')).status).toBe(403)
    expect((await act(org.crew, 'experience', id, 'submit')).status).toBe(200)
    expect((await act(org.crew, 'experience', id, 'verify')).status).toBe(403)
    expect((await act(org.crew, 'experience', id, 'reject')).status).toBe(403)
    expect((await act(org.officeEmployee, 'experience', id, 'reject')).status).toBe(200)
    expect((await act(org.officeAdmin, 'experience', id, 'submit')).status).toBe(200)
    expect((await act(org.officeEmployee, 'experience', id, 'verify')).status).toBe(200)
  })

  it('checks the role before the record: crew verifying a missing item, office employees submitting a foreign one, get 403', async () => {
    const org = await newOrg()
    const other = await newOrg()
    const foreign = await create(other, 'experience', other.crew)
    expect((await act(org.crew, 'identity-documents', '0190a0a0-0000-7000-8000-000000000000', 'verify')).status).toBe(403)
    expect((await act(org.crew, 'experience', foreign, 'reject')).status).toBe(403)
    expect((await act(org.officeEmployee, 'experience', foreign, 'submit')).status).toBe(403)
    expect((await currentVerification(other, foreign)).status).toBe('not_submitted')
  })

  it("makes another crew member's item, another organization's item and a missing item a 404", async () => {
    const org = await newOrg()
    const other = await newOrg()
    const mate = await org.addUser('crew')
    const mates = await create(org, 'experience', mate)
    expect((await act(org.crew, 'experience', mates, 'submit')).body).toEqual({ detail: 'Experience not found' })
    const id = await create(org, 'identity-documents')
    expect((await act(other.admin, 'identity-documents', id, 'verify')).status).toBe(404)
    expect((await act(org.admin, 'certificates', id, 'verify')).status).toBe(404)
    expect((await act(org.admin, 'identity-documents', '0190a0a0-0000-7000-8000-000000000000', 'verify')).status).toBe(404)
    expect((await currentVerification(org, id)).status).toBe('pending')
  })

  it('needs the crew product', async () => {
    const org = await createOrg(t.app, t.database.db, { products: ['learn'] })
    const res = await act(org.admin, 'identity-documents', '0190a0a0-0000-7000-8000-000000000000', 'verify')
    expect(res.status).toBe(403)
  })
})

describe('edits and the verification', () => {
  const patchDoc = (org: TestOrg, id: string, body: object) => org.crew.api.patch(`/api/v1/crew/identity-documents/${id}`, body)

  it.each([
    ['a notes-only edit', { notes: 'new scan attached' }, 'verified'],
    ['re-sending the same values', { documentNumber: 'P1', issuingCountry: null }, 'verified'],
    ['a material edit', { documentNumber: 'P2' }, 'pending'],
    ['a material edit with notes', { documentNumber: 'P2', notes: 'typo' }, 'pending'],
  ])('%s of a verified document leaves it %s', async (_name, body, status) => {
    const org = await newOrg()
    const id = await itemIn(org, 'identity-documents', 'verified')
    const before = await currentVerification(org, id)
    const res = await patchDoc(org, id, body)
    expect(res.status).toBe(200)
    if (status === 'verified') {
      expect(res.body.verification).toEqual(before)
      expect((await historyOf(t.database.db, id)).at(-1)?.action).toBe('verify')
    } else {
      expect(res.body.verification).toEqual({ ...before, status: 'pending', reviewedAt: null })
      expect((await historyOf(t.database.db, id)).at(-1)).toMatchObject({
        from_status: 'verified',
        to_status: 'pending',
        action: 'edit',
        actor_user_id: org.crew.id,
      })
      expect((await verificationRow(t.database.db, id))?.reviewer_user_id).toBeNull()
    }
    expect((await org.crew.api.get(`/api/v1/crew/identity-documents/${id}`)).body.verification).toEqual(res.body.verification)
  })

  it('treats a country re-sent in another case as the same value', async () => {
    const org = await newOrg()
    const id = await create(org, 'identity-documents')
    await patchDoc(org, id, { issuingCountry: 'NO' })
    await act(org.admin, 'identity-documents', id, 'verify')
    expect((await patchDoc(org, id, { issuingCountry: 'no' })).body.verification.status).toBe('verified')
  })

  it('returns a rejected item to pending on a material edit, clearing the reason', async () => {
    const org = await newOrg()
    const id = await itemIn(org, 'certificates', 'rejected')
    const res = await org.crew.api.patch(`/api/v1/crew/certificates/${id}`, { expiryDate: '2031-01-01' })
    expect(res.body.verification).toEqual({
      targetType: 'certificate',
      targetId: id,
      status: 'pending',
      rejectionReason: null,
      reviewedAt: null,
    })
  })

  it('leaves pending and not-submitted items where they are', async () => {
    const org = await newOrg()
    const pending = await create(org, 'identity-documents')
    expect((await patchDoc(org, pending, { documentNumber: 'Z9' })).body.verification.status).toBe('pending')
    expect(await historyOf(t.database.db, pending)).toHaveLength(1)
    const draft = await create(org, 'experience')
    const res = await org.crew.api.patch(`/api/v1/crew/experience/${draft}`, { position: 'Chief Officer' })
    expect(res.body.verification.status).toBe('not_submitted')
  })

  it('returns verified experience to pending on a material edit, not on notes', async () => {
    const org = await newOrg()
    const id = await itemIn(org, 'experience', 'verified')
    const url = `/api/v1/crew/experience/${id}`
    expect((await org.crew.api.patch(url, { notes: 'reference letter' })).body.verification.status).toBe('verified')
    expect((await org.crew.api.patch(url, { startDate: '2020-01-01' })).body.verification.status).toBe('verified')
    expect((await org.crew.api.patch(url, { endDate: '2021-01-01' })).body.verification.status).toBe('pending')
  })

  it('changes neither the record nor its verification when the edit is refused', async () => {
    const org = await newOrg()
    const id = await itemIn(org, 'identity-documents', 'verified')
    const before = (await org.crew.api.get(`/api/v1/crew/identity-documents/${id}`)).body
    const res = await patchDoc(org, id, { documentNumber: 'P3', uploadId: '0190a0a0-0000-7000-8000-000000000000' })
    expect(res.status).toBe(422)
    expect((await org.crew.api.get(`/api/v1/crew/identity-documents/${id}`)).body).toEqual(before)
  })
})
