import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../src/db/database.js'
import { createShip } from './fixtures/assignments.js'
import { enroll } from './fixtures/registrations.js'
import { insertCourse, type TestOrg } from './factories.js'
import { type StatementCounter, statementCounter } from './statement-counter.js'

let counter: StatementCounter
let db: Db
let org: TestOrg
beforeAll(async () => {
  counter = await statementCounter()
  ;({ db, org } = counter)
})
afterAll(() => counter.app.close())

const cost: StatementCounter['cost'] = (send, status) => counter.cost(send, status)
const eventsOf = (targetId: string) => counter.eventsOf(targetId)

describe('round trips of the hot requests', () => {
  it('creating an identity document is one statement, without a transaction', async () => {
    const path = `/api/v1/crew/users/${org.crew.id}/identity-documents`
    counter.reset()
    const created = await org.admin.api.post(path, { documentType: 'passport', documentNumber: 'P1' })
    expect([created.status, counter.statements, counter.transactions]).toEqual([201, 1, 0])
    // The document, its pending verification and the verification's first event, all from that statement.
    const stored = await db
      .selectFrom('identity_documents as d')
      .innerJoin('verifications as v', 'v.target_id', 'd.id')
      .innerJoin('verification_events as e', 'e.target_id', 'd.id')
      .select(['d.document_number', 'v.status', 'e.action', 'e.from_status', 'e.to_status', 'e.actor_user_id'])
      .where('d.id', '=', created.body.id)
      .execute()
    expect(stored).toEqual([
      { document_number: 'P1', status: 'pending', action: 'create', from_status: null, to_status: 'pending', actor_user_id: org.admin.id },
    ])
    expect(created.body.verification).toEqual({
      targetType: 'identity_document',
      targetId: created.body.id,
      status: 'pending',
      rejectionReason: null,
      reviewedAt: null,
    })
    // ... and its event, the document as the response shows it.
    expect(await eventsOf(created.body.id)).toEqual([{ type: 'identity_document.created', data: created.body }])

    // The existence check and the upload reference are conditions of the statement: a user of another
    // organization is still a 404, an upload that is not there a 422, and nothing is written.
    const { other } = counter
    const otherPath = `/api/v1/crew/users/${other.crew.id}/identity-documents`
    expect(await cost(() => org.admin.api.post(otherPath, { documentType: 'passport' }), 404)).toEqual({ statements: 1, transactions: 0 })
    counter.reset()
    const badUpload = await org.admin.api.post(path, { documentType: 'passport', uploadId: uuidv7() })
    expect([badUpload.status, badUpload.body, counter.statements]).toEqual([
      422,
      { detail: [{ loc: ['body', 'uploadId'], msg: 'Upload not found or not ready to be referenced', type: 'value_error' }] },
      1,
    ])
    const documents = await db.selectFrom('identity_documents').select('id').where('user_id', 'in', [org.crew.id, other.crew.id]).execute()
    expect(documents).toEqual([{ id: created.body.id }])
    const refused = await db
      .selectFrom('events')
      .select('id')
      .where('organization_id', 'in', [org.id, other.id])
      .where('type', '=', 'identity_document.created')
      .execute()
    expect(refused).toHaveLength(1)
  })

  it('reads are one statement each', async () => {
    const ship = await createShip(org)
    const assignment = (await org.admin.api.post('/api/v1/assignments/', { userId: org.crew.id, shipId: ship.id, role: 'Cook' })).body
    const courseId = await insertCourse(db, org.id)
    // A curriculum with a course: its list and item carry their courses from the same statement.
    const curriculum = (await org.admin.api.post('/api/v1/learn/curriculums', { title: 'Deck induction' })).body
    expect((await org.admin.api.post(`/api/v1/learn/curriculums/${curriculum.id}/courses?course_id=${courseId}`)).status).toBe(200)
    const crewId = org.crew.id
    const reads = [
      `/api/v1/assignments/${assignment.id}`,
      '/api/v1/courses/?limit=10',
      `/api/v1/assignments/?ship_id=${ship.id}`,
      '/api/v1/crew/verifications?status=pending',
      '/api/v1/learn/admin/analytics/course-difficulty',
      `/api/v1/learn/admin/analytics/course-difficulty/${courseId}/questions`,
      '/api/v1/shared/ships',
      `/api/v1/shared/ships/${ship.id}`,
      '/api/v1/shared/users',
      `/api/v1/shared/users/${crewId}`,
      '/api/v1/learn/curriculums',
      `/api/v1/learn/curriculums/${curriculum.id}`,
      `/api/v1/crew/users/${crewId}/identity-documents`,
      `/api/v1/crew/users/${crewId}/certificates`,
      `/api/v1/crew/users/${crewId}/experience`,
      `/api/v1/crew/users/${crewId}/next-of-kin`,
      '/api/v1/crew/roster',
      '/api/v1/crew/expiring',
      '/api/v1/crew/requirements',
      `/api/v1/learn/assignments/${assignment.id}/readiness`,
      '/api/v1/learn/readiness',
      `/api/v1/shared/ships/${ship.id}/readiness`,
      '/api/v1/shared/audit-events',
      '/api/v1/shared/webhooks',
    ]
    // The crew member's lists below hold a record each: a row of the member's shows the member is there.
    const records = {
      'identity-documents': { documentType: 'passport' },
      certificates: { certificateType: 'stcw_basic_safety' },
      experience: { companyName: 'CMA CGM', position: 'AB', startDate: '2019-05-01' },
      'next-of-kin': { relationship: 'spouse', fullName: 'Kim Lee' },
    }
    for (const [kind, body] of Object.entries(records))
      expect((await org.admin.api.post(`/api/v1/crew/users/${crewId}/${kind}`, body)).status).toBe(201)
    const costs = []
    for (const path of reads) costs.push({ path, ...(await cost(() => org.admin.api.get(path), 200)) })
    expect(costs).toEqual(reads.map((path) => ({ path, statements: 1, transactions: 0 })))
    // An empty list asks whether the member exists: [] for one without records, 404 for one out of reach.
    expect(await cost(() => org.admin.api.get(`/api/v1/crew/users/${org.admin.id}/certificates`), 200)).toEqual({
      statements: 2,
      transactions: 0,
    })
    expect(await cost(() => org.admin.api.get(`/api/v1/crew/users/${counter.other.crew.id}/experience`), 404)).toEqual({
      statements: 2,
      transactions: 0,
    })
    // The course is the first table of the questions' statement: a course out of reach is 404 from it alone.
    const otherCourse = await insertCourse(db, counter.other.id)
    const questions = `/api/v1/learn/admin/analytics/course-difficulty/${otherCourse}/questions`
    expect(await cost(() => org.admin.api.get(questions), 404)).toEqual({ statements: 1, transactions: 0 })
  })

  it('recording an attempt is one statement', async () => {
    const { registrationId } = await enroll(db, org.id, org.crew.id)
    const attempt = { attemptId: uuidv7(), passed: true, score_percent: 90, time_spent_seconds: 60 }
    expect(await cost(() => org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/attempts`, attempt), 201)).toEqual({
      statements: 1,
      transactions: 0,
    })
    expect((await eventsOf(registrationId)).map((e) => e.type)).toEqual(['registration.passed'])
    // A replay (the statement, then the comparison of its content) changes nothing and writes no event.
    expect(await cost(() => org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/attempts`, attempt), 200)).toEqual({
      statements: 2,
      transactions: 0,
    })
    expect(await eventsOf(registrationId)).toHaveLength(1)
  })

  it('PATCH assignment: one statement, with or without dates', async () => {
    const ship = await createShip(org)
    const assignment = (await org.admin.api.post('/api/v1/assignments/', { userId: org.crew.id, shipId: ship.id, role: 'Cook' })).body
    const path = `/api/v1/assignments/${assignment.id}`
    expect(await cost(() => org.admin.api.patch(path, { role: 'Bosun' }), 200)).toEqual({ statements: 1, transactions: 0 })
    expect(await cost(() => org.admin.api.patch(path, { dueDate: '2030-01-01' }), 200)).toEqual({ statements: 1, transactions: 0 })
    expect(await cost(() => org.admin.api.patch(path, {}), 200)).toEqual({ statements: 1, transactions: 0 })
    const stored = await db.selectFrom('assignments').select(['role', 'due_date']).where('id', '=', assignment.id).executeTakeFirstOrThrow()
    expect(stored).toEqual({ role: 'Bosun', due_date: '2030-01-01' })
    // Each statement wrote its event; the same role again writes none.
    expect(await cost(() => org.admin.api.patch(path, { role: 'Bosun' }), 200)).toEqual({ statements: 1, transactions: 0 })
    expect(await eventsOf(assignment.id)).toEqual([
      { type: 'assignment.created', data: assignment },
      { type: 'assignment.updated', data: { changes: { role: ['Cook', 'Bosun'] } } },
      { type: 'assignment.updated', data: { changes: { dueDate: [null, '2030-01-01'] } } },
    ])
  })
})
