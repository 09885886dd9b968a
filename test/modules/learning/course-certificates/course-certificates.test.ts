import { v7 as uuidv7 } from 'uuid'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, type TestOrg, type TestUser } from '../../../factories.js'
import { createAssignment, createShip } from '../../../fixtures/assignments.js'
import { codesOf, crewOnAssignment, readiness, setRequirements } from '../../../fixtures/readiness.js'
import { insertRegistration } from '../../../fixtures/registrations.js'

// Courses that issue certificates (DECISIONS §14): the template on courses, and the certificate a pass
// issues or renews in the same transaction.

const t = useTestApp()

const template = { certificateType: 'stcw_basic_safety', validityMonths: 1 }

async function createCourse(org: TestOrg, certificate?: unknown) {
  const body = { organization_id: org.id, s3_path: 'courses/x', launch_file: 'index.html', title: 'Basic safety', certificate }
  const res = await org.admin.api.post('/api/v1/learn/courses', body)
  expect(res.status).toBe(201)
  return res.body as { id: string; certificate: unknown }
}

async function pass(user: TestUser, registrationId: string, finishedAt: string) {
  const res = await user.api.post(`/api/v1/learn/registrations/${registrationId}/attempts`, {
    attemptId: uuidv7(),
    passed: true,
    finished_at: finishedAt,
  })
  expect(res.status).toBe(201)
}

async function certificatesOf(org: TestOrg, user: TestUser) {
  const res = await org.admin.api.get(`/api/v1/crew/users/${user.id}/certificates`)
  expect(res.status).toBe(200)
  return res.body as Record<string, unknown>[]
}

const orgName = async (orgId: string) =>
  (await t.database.db.selectFrom('organizations').select('name').where('id', '=', orgId).executeTakeFirstOrThrow()).name

const eventsOf = (orgId: string, targetId: string) =>
  t.database.db
    .selectFrom('events')
    .select(['type', 'actor_user_id', 'data'])
    .where('organization_id', '=', orgId)
    .where('target_id', '=', targetId)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute()

/** A crew member on an assignment, registered for a new course with `certificate`. */
async function enrolled(org: TestOrg, certificate: unknown = template) {
  const { user, assignmentId } = await crewOnAssignment(org)
  const course = await createCourse(org, certificate)
  const registrationId = await insertRegistration(t.database.db, org.id, assignmentId, course.id)
  return { user, assignmentId, courseId: course.id, registrationId }
}

describe('the certificate template on courses', () => {
  it('is set on create, shown by GET, changed and removed by PATCH', async () => {
    const org = await createOrg(t.app, t.database.db)
    const course = await createCourse(org, { certificateType: 'gmdss_endorsement', validityMonths: 60 })
    expect(course.certificate).toEqual({ certificateType: 'gmdss_endorsement', validityMonths: 60 })
    expect((await org.crew.api.get(`/api/v1/learn/courses/${course.id}`)).body.certificate).toEqual(course.certificate)

    const patched = await org.admin.api.patch(`/api/v1/learn/courses/${course.id}`, { certificate: { ...template, validityMonths: 120 } })
    expect(patched.status).toBe(200)
    expect(patched.body.certificate).toEqual({ ...template, validityMonths: 120 })
    const titled = await org.admin.api.patch(`/api/v1/learn/courses/${course.id}`, { title: 'Renamed' })
    expect(titled.body.certificate).toEqual({ ...template, validityMonths: 120 })
    const removed = await org.admin.api.patch(`/api/v1/learn/courses/${course.id}`, { certificate: null })
    expect(removed.body.certificate).toBeNull()
    const row = await t.database.db.selectFrom('courses').selectAll().where('id', '=', course.id).executeTakeFirstOrThrow()
    expect([row.certificate_type, row.certificate_validity_months]).toEqual([null, null])
    expect((await createCourse(org)).certificate).toBeNull()
  })

  it.each([
    [{ ...template, validityMonths: 0 }],
    [{ ...template, validityMonths: 121 }],
    [{ ...template, validityMonths: 1.5 }],
    [{ certificateType: 'not_a_type', validityMonths: 12 }],
    [{ certificateType: 'stcw_basic_safety' }],
  ])('refuses the template %j with 422 and writes nothing', async (certificate) => {
    const org = await createOrg(t.app, t.database.db)
    const body = { organization_id: org.id, s3_path: 'courses/x', launch_file: 'index.html', title: 'Refused', certificate }
    expect((await org.admin.api.post('/api/v1/learn/courses', body)).status).toBe(422)
    const course = await createCourse(org)
    expect((await org.admin.api.patch(`/api/v1/learn/courses/${course.id}`, { certificate })).status).toBe(422)
    const rows = await t.database.db.selectFrom('courses').selectAll().where('organization_id', '=', org.id).execute()
    expect(rows.map((row) => row.certificate_type)).toEqual([null])
  })
})

describe('passing a course with a certificate template', () => {
  it('issues a verified certificate dated by the pass, month ends as PostgreSQL adds months, with its event', async () => {
    const org = await createOrg(t.app, t.database.db)
    const s = await enrolled(org)
    await pass(s.user, s.registrationId, '2026-01-31T23:30:00.000Z')

    const [certificate] = await certificatesOf(org, s.user)
    expect(certificate).toEqual({
      id: expect.any(String),
      certificateType: 'stcw_basic_safety',
      certificateNumber: s.registrationId,
      issuingAuthority: await orgName(org.id),
      issueDate: '2026-01-31',
      expiryDate: '2026-02-28',
      uploadId: null,
      uploadedByUserId: s.user.id,
      status: 'expired',
      verification: {
        targetType: 'certificate',
        targetId: certificate!.id,
        status: 'verified',
        rejectionReason: null,
        reviewedAt: expect.any(String),
      },
      notes: null,
      source: 'course',
      registrationId: s.registrationId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    expect(await certificatesOf(org, s.user)).toHaveLength(1)
    const events = await eventsOf(org.id, certificate!.id as string)
    expect(events).toEqual([{ type: 'certificate.created', actor_user_id: null, data: certificate }])
    const history = await t.database.db.selectFrom('verification_events').selectAll().where('target_id', '=', certificate!.id as string).execute()
    expect(history.map((row) => [row.from_status, row.to_status, row.action])).toEqual([[null, 'verified', 'create']])
  })

  it('in a leap year, 31 January plus one month is 29 February', async () => {
    const org = await createOrg(t.app, t.database.db)
    const s = await enrolled(org)
    await pass(s.user, s.registrationId, '2028-01-31T00:00:00.000Z')
    const [certificate] = await certificatesOf(org, s.user)
    expect([certificate!.issueDate, certificate!.expiryDate]).toEqual(['2028-01-31', '2028-02-29'])
  })

  it('renews the course certificate on a later pass instead of adding one, keeping its history; manual ones stay apart', async () => {
    const org = await createOrg(t.app, t.database.db)
    const s = await enrolled(org, { ...template, validityMonths: 12 })
    const manual = await org.admin.api.post(`/api/v1/crew/users/${s.user.id}/certificates`, {
      certificateType: 'stcw_basic_safety',
      certificateNumber: 'PAPER-1',
    })
    expect(manual.status).toBe(201)
    expect([manual.body.source, manual.body.registrationId]).toEqual(['manual', null])
    await pass(s.user, s.registrationId, '2026-03-10T08:00:00.000Z')
    const first = (await certificatesOf(org, s.user)).find((row) => row.source === 'course')!

    const later = await createAssignment(org, s.user, await createShip(org), { startDate: '2027-01-01' })
    const secondCourse = await createCourse(org, { ...template, validityMonths: 24 })
    const secondRegistration = await insertRegistration(t.database.db, org.id, later.id, secondCourse.id)
    await pass(s.user, secondRegistration, '2027-02-01T08:00:00.000Z')

    const certificates = await certificatesOf(org, s.user)
    expect(certificates.map((row) => row.source).sort()).toEqual(['course', 'manual'])
    const renewed = certificates.find((row) => row.source === 'course')!
    expect(renewed).toEqual({
      ...first,
      certificateNumber: secondRegistration,
      issueDate: '2027-02-01',
      expiryDate: '2029-02-01',
      registrationId: secondRegistration,
      status: 'valid',
      verification: { ...(first.verification as object), reviewedAt: expect.any(String) },
      updatedAt: expect.any(String),
    })
    const events = await eventsOf(org.id, renewed.id as string)
    expect(events.map((event) => event.type)).toEqual(['certificate.created', 'certificate.updated'])
    expect(events[1]!.data).toEqual({
      changes: {
        certificateNumber: [s.registrationId, secondRegistration],
        issueDate: ['2026-03-10', '2027-02-01'],
        expiryDate: ['2027-03-10', '2029-02-01'],
        registrationId: [s.registrationId, secondRegistration],
      },
    })
    const history = await t.database.db.selectFrom('verification_events').selectAll().where('target_id', '=', renewed.id as string).execute()
    expect(history.map((row) => [row.from_status, row.action])).toEqual([
      [null, 'create'],
      ['verified', 'course_passed'],
    ])
  })

  it('issues nothing for a course without a template, nor for failed attempts or a pass replayed after a pass', async () => {
    const org = await createOrg(t.app, t.database.db)
    const plain = await enrolled(org, null)
    await pass(plain.user, plain.registrationId, '2026-03-10T08:00:00.000Z')
    expect(await certificatesOf(org, plain.user)).toEqual([])

    const s = await enrolled(org)
    const failed = await s.user.api.post(`/api/v1/learn/registrations/${s.registrationId}/attempts`, { attemptId: uuidv7(), passed: false })
    expect(failed.status).toBe(201)
    expect(await certificatesOf(org, s.user)).toEqual([])
    await pass(s.user, s.registrationId, '2026-03-10T08:00:00.000Z')
    const [issued] = await certificatesOf(org, s.user)
    await pass(s.user, s.registrationId, '2026-04-10T08:00:00.000Z')
    expect(await certificatesOf(org, s.user)).toEqual([issued])
  })

  // The contract's code for a required certificate nobody holds is `document_missing` naming the type.
  it('clears the missing-certificate blocker of the assignment at once, stored verdict included', async () => {
    const org = await createOrg(t.app, t.database.db)
    await setRequirements(org, [{ role: 'Bosun', certificateTypes: ['stcw_basic_safety'] }])
    const s = await enrolled(org, { ...template, validityMonths: 60 })
    const missing = (verdict: { blockers: { code: string; requirement: string }[] }) =>
      verdict.blockers.filter((issue) => issue.code === 'document_missing' && issue.requirement === 'stcw_basic_safety')
    const before = await readiness(org.admin, s.assignmentId)
    expect(missing(before)).toHaveLength(1)
    await pass(s.user, s.registrationId, new Date().toISOString())
    const after = await readiness(org.admin, s.assignmentId)
    expect(missing(after)).toEqual([])
    expect(codesOf(after).blockers).not.toContain('course_overdue')
  })

  it("keeps the certificate in the learner's organization: others see 404, another crew member sees 404", async () => {
    const org = await createOrg(t.app, t.database.db)
    const other = await createOrg(t.app, t.database.db)
    const s = await enrolled(org)
    const refused = await other.crew.api.post(`/api/v1/learn/registrations/${s.registrationId}/attempts`, {
      attemptId: uuidv7(),
      passed: true,
    })
    expect(refused.status).toBe(404)
    expect(await certificatesOf(org, s.user)).toEqual([])
    await pass(s.user, s.registrationId, '2026-03-10T08:00:00.000Z')
    const [certificate] = await certificatesOf(org, s.user)
    expect((await other.admin.api.get(`/api/v1/crew/certificates/${certificate!.id}`)).status).toBe(404)
    expect((await org.crew.api.get(`/api/v1/crew/certificates/${certificate!.id}`)).status).toBe(404)
    expect((await s.user.api.get(`/api/v1/crew/certificates/${certificate!.id}`)).body).toEqual(certificate)
    const rows = await t.database.db.selectFrom('certificates').select('organization_id').where('id', '=', certificate!.id as string).execute()
    expect(rows).toEqual([{ organization_id: org.id }])
  })

  it('does not let a request set source or registrationId: unknown fields are dropped as elsewhere', async () => {
    const org = await createOrg(t.app, t.database.db)
    const res = await org.admin.api.post(`/api/v1/crew/users/${org.crew.id}/certificates`, {
      certificateType: 'stcw_basic_safety',
      source: 'course',
      registrationId: uuidv7(),
    })
    expect(res.status).toBe(201)
    expect([res.body.source, res.body.registrationId]).toEqual(['manual', null])
    const patched = await org.admin.api.patch(`/api/v1/crew/certificates/${res.body.id}`, { source: 'course' })
    expect(patched.body.source).toBe('manual')
    const rows = await t.database.db.selectFrom('certificates').select(['source', 'registration_id']).where('user_id', '=', org.crew.id).execute()
    expect(rows).toEqual([{ source: 'manual', registration_id: null }])
  })
})
