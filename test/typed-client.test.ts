import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSeaworthyClient, type SeaworthyClient } from '../client/index.js'
import { pdfWithPages } from './fixtures/uploads.js'
import { buildTestApp, type TestApp } from './app.js'
import { createOrg, nextImo, type TestOrg } from './factories.js'
import { freePort } from './free-port.js'

// DECISIONS §12: the generated types and the thin client drive whole flows against a listening server.
// Only the presigned POST is a plain fetch: its URL is one the API hands out, not a documented path.

let t: TestApp
let org: TestOrg
let as: (token: string) => SeaworthyClient
beforeAll(async () => {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  t = await buildTestApp({ PUBLIC_URL: baseUrl })
  await t.app.listen({ host: '127.0.0.1', port })
  org = await createOrg(t.app, t.database.db)
  as = (token) => createSeaworthyClient({ baseUrl, token })
})
afterAll(() => t.app.close())

describe('the typed client', () => {
  it('runs a crew flow: upload, identity document, verification, profile rollup', async () => {
    const crew = as(org.crew.token)
    const office = as(org.officeAdmin.token)
    const pdf = await pdfWithPages(2)

    const intent = await crew.POST('/api/v1/shared/uploads/intent', {
      body: { kind: 'identity_document', mime: 'application/pdf', size: pdf.length, filename: 'passport.pdf' },
    })
    expect(intent.response.status).toBe(201)
    const { uploadId, presignedPost } = intent.data!
    const form = new FormData()
    for (const [name, value] of Object.entries(presignedPost.fields)) form.append(name, value)
    form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'passport.pdf')
    expect((await fetch(presignedPost.url, { method: 'POST', body: form })).status).toBe(204)

    const finalized = await crew.POST('/api/v1/shared/uploads/{upload_id}/finalize', { params: { path: { upload_id: uploadId } } })
    expect(finalized.data).toMatchObject({ id: uploadId, status: 'ready', sizeBytes: pdf.length, pageCount: 2 })

    const created = await crew.POST('/api/v1/crew/users/{user_id}/identity-documents', {
      params: { path: { user_id: org.crew.id } },
      body: { documentType: 'passport', documentNumber: 'P1234567', issuingCountry: 'no', expiryDate: '2034-02-28', uploadId },
    })
    expect(created.response.status).toBe(201)
    const document = created.data!
    expect(document).toMatchObject({ documentType: 'passport', issuingCountry: 'NO', uploadId, verification: { status: 'pending' } })

    const verified = await office.POST('/api/v1/crew/identity-documents/{document_id}/verify', {
      params: { path: { document_id: document.id } },
    })
    expect(verified.data).toMatchObject({ targetType: 'identity_document', targetId: document.id, status: 'verified' })

    const rollup = await crew.GET('/api/v1/crew/users/{user_id}/verification', { params: { path: { user_id: org.crew.id } } })
    expect(rollup.data?.items).toEqual([expect.objectContaining({ targetId: document.id, status: 'verified' })])
    expect(rollup.data?.state).toBe('approved')

    const stored = await t.database.db
      .selectFrom('verifications')
      .select('status')
      .where('target_id', '=', document.id)
      .executeTakeFirstOrThrow()
    expect(stored.status).toBe('verified')
  })

  it('runs a learning flow: ship, course, assignment, bulk courses, registration, attempt, course difficulty', async () => {
    const admin = as(org.admin.token)
    const crew = as(org.crew.token)

    const ship = (await admin.POST('/api/v1/shared/ships', { body: { name: 'Nordic Star', imoNumber: nextImo() } })).data!
    const course = (
      await admin.POST('/api/v1/courses/', {
        body: { organization_id: org.id, s3_path: 'courses/fire-safety', launch_file: 'index.html', title: 'Fire safety basics' },
      })
    ).data!
    const assignment = (
      await admin.POST('/api/v1/assignments/', { body: { userId: org.crew.id, shipId: ship.id, role: 'Chief Engineer' } })
    ).data!
    expect(assignment).toMatchObject({ userId: org.crew.id, shipId: ship.id, isActive: true })

    const bulk = await admin.POST('/api/v1/learn/assignments/bulk/courses', {
      body: { assignmentIds: [assignment.id], courseIds: [course.id] },
    })
    expect(bulk.data).toEqual({ updatedCount: 1, totalCoursesAssigned: 1, failedAssignmentIds: [] })

    const registrations = await admin.GET('/api/v1/learn/registrations', { params: { query: { assignment_id: assignment.id } } })
    expect(registrations.data?.items).toEqual([expect.objectContaining({ course_id: course.id, status: 'not_started', attempt_count: 0 })])
    const registration = registrations.data!.items[0]

    const attempt = await crew.POST('/api/v1/learn/registrations/{registration_id}/attempts', {
      params: { path: { registration_id: registration.id } },
      body: { attemptId: randomUUID(), passed: true, score_percent: 90, time_spent_seconds: 600 },
    })
    expect(attempt.response.status).toBe(201)
    expect(attempt.data).toMatchObject({ id: registration.id, status: 'passed', score_percent: 90, attempt_count: 1 })

    const difficulty = await admin.GET('/api/v1/learn/admin/analytics/course-difficulty')
    expect(difficulty.data?.data).toEqual([
      { courseId: course.id, course: 'Fire safety basics', avgAttempts: 1, passRate: 1, enrollments: 1 },
    ])

    const stored = await t.database.db
      .selectFrom('registrations')
      .select(['status', 'attempt_count'])
      .where('id', '=', registration.id)
      .executeTakeFirstOrThrow()
    expect(stored).toEqual({ status: 'passed', attempt_count: 1 })
  })

  it('answers errors with their declared bodies', async () => {
    const anonymous = createSeaworthyClient({ baseUrl: `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}` })
    const refused = await anonymous.GET('/api/v1/shared/ships')
    expect(refused.response.status).toBe(401)
    expect(refused.error).toEqual({ detail: 'Not authenticated' })
  })
})
