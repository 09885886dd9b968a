import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../src/db/database.js'
import type { TestOrg } from './factories.js'
import { rowLockQueued, type StatementCounter, statementCounter } from './statement-counter.js'

// Round trips of the single-item writes on a user's crew records: each is one statement, without a
// transaction, and a refused write (another organization's record, another crew member's) writes nothing.

let counter: StatementCounter
let db: Db
let org: TestOrg
let other: TestOrg
beforeAll(async () => {
  counter = await statementCounter()
  ;({ db, org, other } = counter)
})
afterAll(() => counter.app.close())

const ONE = { statements: 1, transactions: 0 }
const cost: StatementCounter['cost'] = (send, status) => counter.cost(send, status)
const eventsOf = (targetId: string) => counter.eventsOf(targetId)
/** The events of the organization of `type`: a refused write leaves their number as it was. */
const countEvents = async (type: string) =>
  (await db.selectFrom('events').select('id').where('organization_id', 'in', [org.id, other.id]).where('type', '=', type).execute()).length

/**
 * Sends `requests` while a transaction holds the lock of one row, and releases it once they all wait
 * on it, so that their statements truly overlap. PostgreSQL only: PGlite runs one statement at a time.
 */
async function queuedOnLock<T>(table: 'identity_documents' | 'verifications', id: string, requests: () => Promise<T>[]): Promise<T[]> {
  let release = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  let lockTaken = () => {}
  const taken = new Promise<void>((resolve) => {
    lockTaken = resolve
  })
  const column = table === 'verifications' ? 'target_id' : 'id'
  let holderTrx: Db | undefined
  const holder = db.transaction().execute(async (trx) => {
    await sql`select 1 from ${sql.table(table)} where ${sql.ref(column)} = ${id} for update`.execute(trx)
    holderTrx = trx
    lockTaken()
    await held
  })
  await taken
  const pending = requests()
  await rowLockQueued(holderTrx!, db, { table, column, id }, pending.length)
  release()
  await holder
  return Promise.all(pending)
}
const onPostgres = Boolean(process.env.TEST_DATABASE_URL)

describe('next of kin', () => {
  const list = (userId: string) => `/api/v1/crew/users/${userId}/next-of-kin`
  const item = (id: string) => `/api/v1/crew/next-of-kin/${id}`

  it('create, update and delete are one statement each, with their events', async () => {
    counter.reset()
    const created = await org.crew.api.post(list(org.crew.id), { relationship: 'spouse', fullName: 'Maria Santos' })
    expect([created.status, counter.statements, counter.transactions]).toEqual([201, 1, 0])
    const path = item(created.body.id)
    counter.reset()
    const patched = await org.crew.api.patch(path, { phone: '+63 1', fullName: 'Maria Santos' })
    expect([patched.status, counter.statements, counter.transactions]).toEqual([200, 1, 0])
    expect(patched.body).toEqual({ ...created.body, phone: '+63 1', updatedAt: expect.any(String) })
    expect(patched.body.updatedAt).not.toBe(created.body.updatedAt)
    // The same values again change nothing: the contact as it is, no new update time, no event.
    counter.reset()
    const same = await org.crew.api.patch(path, { phone: '+63 1' })
    expect([same.status, same.body, counter.statements]).toEqual([200, patched.body, 1])
    expect(await cost(() => org.crew.api.delete(path), 204)).toEqual(ONE)
    expect(await db.selectFrom('next_of_kin').select('id').where('id', '=', created.body.id).execute()).toEqual([])
    expect(await eventsOf(created.body.id)).toEqual([
      { type: 'next_of_kin.created', data: created.body },
      { type: 'next_of_kin.updated', data: { changes: { phone: [null, '+63 1'] } } },
      { type: 'next_of_kin.deleted', data: patched.body },
    ])
  })

  it("refuses another organization's user or contact, and a crew mate's, in one statement, writing nothing", async () => {
    const created = (await org.admin.api.post(list(org.crew.id), { relationship: 'father', fullName: 'Jose' })).body
    const before = await Promise.all(['created', 'updated', 'deleted'].map((verb) => countEvents(`next_of_kin.${verb}`)))
    expect(await cost(() => org.admin.api.post(list(other.crew.id), { relationship: 'x', fullName: 'y' }), 404)).toEqual(ONE)
    for (const caller of [other.admin, other.crew]) {
      expect(await cost(() => caller.api.patch(item(created.id), { fullName: 'Changed' }), 404)).toEqual(ONE)
      expect(await cost(() => caller.api.delete(item(created.id)), 404)).toEqual(ONE)
    }
    const mate = await org.addUser('crew')
    await mate.api.get('/api/v1/users/me')
    expect(await cost(() => mate.api.patch(item(created.id), { fullName: 'Changed' }), 404)).toEqual(ONE)
    expect(await cost(() => mate.api.delete(item(created.id)), 404)).toEqual(ONE)
    // A crew member naming another user is refused before any statement.
    expect(await cost(() => org.crew.api.post(list(mate.id), { relationship: 'x', fullName: 'y' }), 404)).toEqual({
      statements: 0,
      transactions: 0,
    })
    const stored = await db
      .selectFrom('next_of_kin')
      .select(['id', 'full_name'])
      .where('user_id', 'in', [other.crew.id, org.crew.id])
      .execute()
    expect(stored).toEqual([{ id: created.id, full_name: 'Jose' }])
    expect(await Promise.all(['created', 'updated', 'deleted'].map((verb) => countEvents(`next_of_kin.${verb}`)))).toEqual(before)
  })
})

describe('review actions', () => {
  const history = (targetId: string) =>
    db
      .selectFrom('verification_events')
      .select(['from_status', 'to_status', 'action', 'actor_user_id', 'reason'])
      .where('target_id', '=', targetId)
      .orderBy('id')
      .execute()

  it('submit, verify and reject are one statement each, with their history and events', async () => {
    const experience = (
      await org.crew.api.post(`/api/v1/crew/users/${org.crew.id}/experience`, {
        companyName: 'Blue',
        position: 'AB',
        startDate: '2020-01-01',
      })
    ).body
    const path = (action: string) => `/api/v1/crew/experience/${experience.id}/${action}`
    counter.reset()
    const submitted = await org.crew.api.post(path('submit'))
    expect([submitted.status, counter.statements, counter.transactions]).toEqual([200, 1, 0])
    expect(submitted.body).toEqual({
      targetType: 'experience',
      targetId: experience.id,
      status: 'pending',
      rejectionReason: null,
      reviewedAt: null,
    })
    counter.reset()
    const rejected = await org.admin.api.post(path('reject'), { reason: 'Blurred' })
    expect([rejected.status, counter.statements, counter.transactions]).toEqual([200, 1, 0])
    expect(rejected.body).toEqual({ ...submitted.body, status: 'rejected', rejectionReason: 'Blurred', reviewedAt: expect.any(String) })
    expect(await cost(() => org.crew.api.post(path('submit')), 200)).toEqual(ONE)
    counter.reset()
    const verified = await org.admin.api.post(path('verify'))
    expect([verified.status, counter.statements, counter.transactions]).toEqual([200, 1, 0])
    const stored = await db
      .selectFrom('verifications')
      .select(['status', 'reviewer_user_id'])
      .where('target_id', '=', experience.id)
      .execute()
    expect(stored).toEqual([{ status: 'verified', reviewer_user_id: org.admin.id }])
    expect(await history(experience.id)).toEqual([
      { from_status: null, to_status: 'not_submitted', action: 'create', actor_user_id: org.crew.id, reason: null },
      { from_status: 'not_submitted', to_status: 'pending', action: 'submit', actor_user_id: org.crew.id, reason: null },
      { from_status: 'pending', to_status: 'rejected', action: 'reject', actor_user_id: org.admin.id, reason: 'Blurred' },
      { from_status: 'rejected', to_status: 'pending', action: 'submit', actor_user_id: org.crew.id, reason: null },
      { from_status: 'pending', to_status: 'verified', action: 'verify', actor_user_id: org.admin.id, reason: null },
    ])
    const events = await eventsOf(experience.id)
    expect(events.map((event) => event.type)).toEqual([
      'experience.created',
      'verification.submitted',
      'verification.rejected',
      'verification.submitted',
      'verification.verified',
    ])
    expect(events.slice(1, 3).map((event) => event.data)).toEqual([submitted.body, rejected.body])
    expect(events[4].data).toEqual(verified.body)
  })

  it('refuses a move its state does not allow (409) and an item out of reach (404), in one statement, writing nothing', async () => {
    const certificate = (await org.crew.api.post(`/api/v1/crew/users/${org.crew.id}/certificates`, { certificateType: 'medical' })).body
    const path = (action: string) => `/api/v1/crew/certificates/${certificate.id}/${action}`
    const before = { history: await history(certificate.id), events: await eventsOf(certificate.id) }
    counter.reset()
    const refused = await org.crew.api.post(path('submit'))
    expect([refused.status, refused.body.detail, counter.statements]).toEqual([
      409,
      'Cannot submit an item whose verification is pending',
      1,
    ])
    expect(await cost(() => other.admin.api.post(path('verify')), 404)).toEqual(ONE)
    expect(await cost(() => other.admin.api.post(path('reject'), { reason: 'No' }), 404)).toEqual(ONE)
    const mate = await org.addUser('crew')
    await mate.api.get('/api/v1/users/me')
    expect(await cost(() => mate.api.post(path('submit')), 404)).toEqual(ONE)
    expect(await db.selectFrom('verifications').select('status').where('target_id', '=', certificate.id).execute()).toEqual([
      { status: 'pending' },
    ])
    expect({ history: await history(certificate.id), events: await eventsOf(certificate.id) }).toEqual(before)
  })

  it.runIf(onPostgres)('applies only one of two concurrent moves from the same state', async () => {
    const document = (await org.crew.api.post(`/api/v1/crew/users/${org.crew.id}/identity-documents`, { documentType: 'passport' })).body
    const path = (action: string) => `/api/v1/crew/identity-documents/${document.id}/${action}`
    const results = await queuedOnLock('verifications', document.id, () => [
      org.admin.api.post(path('verify')),
      org.admin.api.post(path('reject'), { reason: 'No' }),
    ])
    expect(results.map((res) => res.status).sort()).toEqual([200, 409])
    const moves = await history(document.id)
    expect(moves.map((move) => move.from_status)).toEqual([null, 'pending'])
    expect((await eventsOf(document.id)).map((event) => event.type)).toHaveLength(2)
  })
})

describe('deleting a reviewed record', () => {
  const cases = [
    ['identity document', 'identity-documents', { documentType: 'passport', documentNumber: 'P9', expiryDate: '2031-01-01' }],
    ['certificate', 'certificates', { certificateType: 'medical', issueDate: '2020-01-01' }],
    ['experience', 'experience', { companyName: 'Blue', position: 'AB', startDate: '2020-01-01' }],
  ] as const

  it.each(cases)(
    '%s: one statement deleting it and its verification, its history kept, its event its last shape',
    async (type, path, body) => {
      const created = (await org.crew.api.post(`/api/v1/crew/users/${org.crew.id}/${path}`, body)).body
      const item = `/api/v1/crew/${path}/${created.id}`
      if (path !== 'experience') await org.admin.api.post(`${item}/reject`, { reason: 'Blurred' })
      const last = (await org.admin.api.get(path === 'experience' ? `/api/v1/crew/users/${org.crew.id}/experience` : item)).body
      const before = path === 'experience' ? last.find((row: { id: string }) => row.id === created.id) : last
      // Out of reach (another organization, a crew mate): 404 in one statement, nothing deleted.
      const mate = await org.addUser('crew')
      await mate.api.get('/api/v1/users/me')
      for (const caller of [other.admin, mate]) expect(await cost(() => caller.api.delete(item), 404)).toEqual(ONE)
      expect(await db.selectFrom('verifications').select('target_id').where('target_id', '=', created.id).execute()).toHaveLength(1)
      expect(await cost(() => org.crew.api.delete(item), 204)).toEqual(ONE)
      expect(await db.selectFrom('verifications').select('target_id').where('target_id', '=', created.id).execute()).toEqual([])
      const history = await db
        .selectFrom('verification_events')
        .select('action')
        .where('target_id', '=', created.id)
        .orderBy('id')
        .execute()
      expect(history.map((row) => row.action)).toEqual(path === 'experience' ? ['create'] : ['create', 'reject'])
      const events = await eventsOf(created.id)
      expect(events.at(-1)).toEqual({ type: `${type.replace(' ', '_')}.deleted`, data: before })
      expect(events.filter((event) => event.type.endsWith('.deleted'))).toHaveLength(1)
      expect(await cost(() => org.crew.api.delete(item), 404)).toEqual(ONE)
    },
  )
})

describe('creating a certificate or an experience row', () => {
  const cases = [
    ['certificate', 'certificates', { certificateType: 'medical', certificateNumber: 'M1', expiryDate: '2031-01-01' }, 'pending'],
    ['experience', 'experience', { companyName: 'Blue', position: 'AB', startDate: '2020-01-01' }, 'not_submitted'],
  ] as const

  it.each(cases)('%s: one statement writing it, its verification, its history and its event', async (type, path, body, status) => {
    counter.reset()
    const created = await org.admin.api.post(`/api/v1/crew/users/${org.crew.id}/${path}`, body)
    expect([created.status, counter.statements, counter.transactions]).toEqual([201, 1, 0])
    expect(created.body.verification).toEqual({
      targetType: type,
      targetId: created.body.id,
      status,
      rejectionReason: null,
      reviewedAt: null,
    })
    const stored = await db
      .selectFrom('verifications as v')
      .innerJoin('verification_events as e', 'e.target_id', 'v.target_id')
      .select(['v.status', 'v.user_id', 'e.action', 'e.from_status', 'e.to_status', 'e.actor_user_id'])
      .where('v.target_id', '=', created.body.id)
      .execute()
    expect(stored).toEqual([
      { status, user_id: org.crew.id, action: 'create', from_status: null, to_status: status, actor_user_id: org.admin.id },
    ])
    expect(await eventsOf(created.body.id)).toEqual([{ type: `${type}.created`, data: created.body }])
  })

  it.each(cases)("%s: another organization's user is a 404 in one statement, writing nothing", async (type, path, body) => {
    const before = await countEvents(`${type}.created`)
    expect(await cost(() => org.admin.api.post(`/api/v1/crew/users/${other.crew.id}/${path}`, body), 404)).toEqual(ONE)
    expect(await countEvents(`${type}.created`)).toBe(before)
    const table = path === 'experience' ? 'experiences' : 'certificates'
    expect(await db.selectFrom(table).select('id').where('user_id', '=', other.crew.id).execute()).toEqual([])
  })

  it('an upload that may not be referenced is a 422 in the same one statement', async () => {
    const before = await countEvents('certificate.created')
    counter.reset()
    const res = await org.crew.api.post(`/api/v1/crew/users/${org.crew.id}/certificates`, {
      certificateType: 'medical',
      uploadId: '0190a000-0000-7000-8000-0000000000ff',
    })
    expect([res.status, res.body, counter.statements, counter.transactions]).toEqual([
      422,
      { detail: [{ loc: ['body', 'uploadId'], msg: 'Upload not found or not ready to be referenced', type: 'value_error' }] },
      1,
      0,
    ])
    expect(await countEvents('certificate.created')).toBe(before)
  })
})

describe('PATCH of a reviewed record', () => {
  it('identity document: one statement updating it, reopening its review, with both events in order', async () => {
    const doc = (
      await org.crew.api.post(`/api/v1/crew/users/${org.crew.id}/identity-documents`, {
        documentType: 'passport',
        issueDate: '2020-01-01',
        expiryDate: '2030-01-01',
      })
    ).body
    const path = `/api/v1/crew/identity-documents/${doc.id}`
    const verified = (await org.admin.api.post(`${path}/verify`)).body
    counter.reset()
    const patched = await org.crew.api.patch(path, { documentNumber: 'P2', notes: 'renewed' })
    expect([patched.status, counter.statements, counter.transactions]).toEqual([200, 1, 0])
    const reopened = { ...verified, status: 'pending', reviewedAt: null }
    expect(patched.body).toEqual({ ...doc, documentNumber: 'P2', notes: 'renewed', verification: reopened, updatedAt: expect.any(String) })
    expect(await org.crew.api.get(path).then((res) => res.body)).toEqual(patched.body)
    // Notes alone are no material change: the review stays; the same values again are no change at all.
    await org.admin.api.post(`${path}/verify`)
    expect(await cost(() => org.crew.api.patch(path, { notes: 'again' }), 200)).toEqual(ONE)
    expect(await cost(() => org.crew.api.patch(path, { notes: 'again', documentNumber: 'P2' }), 200)).toEqual(ONE)
    const events = await eventsOf(doc.id)
    expect(events.slice(2, 4)).toEqual([
      {
        type: 'identity_document.updated',
        data: { changes: { documentNumber: [null, 'P2'], notes: [null, 'renewed'], verification: [verified, reopened] } },
      },
      { type: 'verification.reopened', data: reopened },
    ])
    expect(events.slice(4).map((event) => event.type)).toEqual(['verification.verified', 'identity_document.updated'])
    expect(events[5].data).toEqual({ changes: { notes: ['renewed', 'again'] } })
    const history = await db
      .selectFrom('verification_events')
      .select(['action', 'from_status'])
      .where('target_id', '=', doc.id)
      .orderBy('id')
      .execute()
    expect(history).toEqual([
      { action: 'create', from_status: null },
      { action: 'verify', from_status: 'pending' },
      { action: 'edit', from_status: 'verified' },
      { action: 'verify', from_status: 'pending' },
    ])
  })

  it('refuses in the same one statement, writing nothing: out of reach, dates out of order with the stored ones, a bad upload', async () => {
    const cert = (
      await org.crew.api.post(`/api/v1/crew/users/${org.crew.id}/certificates`, { certificateType: 'medical', issueDate: '2020-01-01' })
    ).body
    const path = `/api/v1/crew/certificates/${cert.id}`
    const mate = await org.addUser('crew')
    await mate.api.get('/api/v1/users/me')
    for (const caller of [other.admin, mate]) expect(await cost(() => caller.api.patch(path, { certificateNumber: 'X' }), 404)).toEqual(ONE)
    counter.reset()
    const early = await org.crew.api.patch(path, { certificateNumber: 'X', expiryDate: '2019-12-31' })
    expect([early.status, early.body.detail, counter.statements]).toEqual([
      422,
      [{ loc: ['body', 'expiryDate'], msg: 'expiryDate must not be before issueDate', type: 'value_error' }],
      1,
    ])
    counter.reset()
    const both = await org.crew.api.patch(path, { issueDate: '2031-01-01', expiryDate: '2030-01-01', uploadId: other.crew.id })
    expect([both.status, both.body.detail.map((issue: { loc: string[] }) => issue.loc), counter.statements]).toEqual([
      422,
      [
        ['body', 'expiryDate'],
        ['body', 'uploadId'],
      ],
      1,
    ])
    // The type cannot change: read for the 404 or the full 422, never written.
    expect(await cost(() => org.crew.api.patch(path, { certificateType: 'gmdss' }), 422)).toEqual(ONE)
    expect(await cost(() => other.admin.api.patch(path, { certificateType: 'gmdss' }), 404)).toEqual(ONE)
    expect(await org.crew.api.get(path).then((res) => res.body)).toEqual(cert)
    expect((await eventsOf(cert.id)).map((event) => event.type)).toEqual(['certificate.created'])
  })

  it('experience: the end date is checked against the stored start date, and the change recorded', async () => {
    const row = (
      await org.crew.api.post(`/api/v1/crew/users/${org.crew.id}/experience`, {
        companyName: 'Blue',
        position: 'AB',
        startDate: '2020-01-01',
      })
    ).body
    const path = `/api/v1/crew/experience/${row.id}`
    counter.reset()
    const early = await org.crew.api.patch(path, { endDate: '2019-01-01' })
    expect([early.status, early.body.detail[0].loc, counter.statements]).toEqual([422, ['body', 'endDate'], 1])
    counter.reset()
    const patched = await org.crew.api.patch(path, { endDate: '2021-01-01' })
    expect([patched.status, patched.body.endDate, counter.statements, counter.transactions]).toEqual([200, '2021-01-01', 1, 0])
    expect((await eventsOf(row.id)).slice(1)).toEqual([
      { type: 'experience.updated', data: { changes: { endDate: [null, '2021-01-01'] } } },
    ])
  })

  it.runIf(onPostgres)('keeps the date order against a concurrent PATCH of the other date', async () => {
    const body = { documentType: 'passport', issueDate: '2020-01-01', expiryDate: '2030-01-01' }
    const doc = (await org.crew.api.post(`/api/v1/crew/users/${org.crew.id}/identity-documents`, body)).body
    const path = `/api/v1/crew/identity-documents/${doc.id}`
    // Each is valid against the stored dates, together they are not: the second must see the first.
    // Both wait on the row's lock before either runs, so they truly overlap.
    const results = await queuedOnLock('identity_documents', doc.id, () => [
      org.crew.api.patch(path, { issueDate: '2025-01-01' }),
      org.admin.api.patch(path, { expiryDate: '2024-01-01' }),
    ])
    expect(results.map((res) => res.status).sort()).toEqual([200, 422])
    const stored = await db
      .selectFrom('identity_documents')
      .select(['issue_date', 'expiry_date'])
      .where('id', '=', doc.id)
      .executeTakeFirstOrThrow()
    expect(stored.expiry_date! >= stored.issue_date!).toBe(true)
    expect((await eventsOf(doc.id)).map((event) => event.type)).toEqual(['identity_document.created', 'identity_document.updated'])
  })
})
