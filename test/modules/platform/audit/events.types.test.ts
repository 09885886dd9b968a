import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { insertCourse, nextImo, PASSWORD, type TestUser, useOrg } from '../../../factories.js'
import type { EventType } from '../../../../src/modules/platform/audit/event-types.js'
import { packagedCourse } from '../../../fixtures/launch.js'
import { enroll } from '../../../fixtures/registrations.js'
import { PNG_3X2, uploadFile } from '../../../fixtures/uploads.js'

// Every event type of DECISIONS §11 (but webhook.* and document.*, whose own tests cover them),
// produced by the route that should produce it and read back through the audit API.

const t = useTestApp()
const org = useOrg(t)

let requests = 0
const newRequestId = () => `events-${++requests}-${randomBytes(4).toString('hex')}`

interface Produced {
  /** The request id sent with the write under test. */
  requestId: string
  target: { type: string; id: string | null }
  actor: TestUser | null
  data: unknown
}

interface Case {
  type: EventType
  produce: (headers: Record<string, string>) => Promise<Omit<Produced, 'requestId'>>
}

const ok = <T extends { status: number; body: any }>(res: T, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  return res.body
}

const createXapiCredential = async (headers = {}) =>
  ok(await org.admin.api.post('/api/v1/learn/xapi/credentials', { name: 'Audit' }, headers), 201)
const createShip = async (headers = {}) =>
  ok(await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Audit', imoNumber: nextImo() }, headers), 201)
const createDocument = async (headers = {}) =>
  ok(
    await org.admin.api.post(
      `/api/v1/crew/users/${org.crew.id}/identity-documents`,
      { documentType: 'passport', documentNumber: 'P1' },
      headers,
    ),
    201,
  )
const createCertificate = async (headers = {}) =>
  ok(
    await org.admin.api.post(
      `/api/v1/crew/users/${org.crew.id}/certificates`,
      { certificateType: 'medical', certificateNumber: 'C1' },
      headers,
    ),
    201,
  )
const createExperience = async (headers = {}) =>
  ok(
    await org.crew.api.post(
      `/api/v1/crew/users/${org.crew.id}/experience`,
      { companyName: 'Blue Line', position: 'AB', startDate: '2020-01-01' },
      headers,
    ),
    201,
  )
const createCourse = async (headers = {}) =>
  ok(
    await org.admin.api.post(
      '/api/v1/courses/',
      { organization_id: org.id, s3_path: 'c/1', launch_file: 'index.html', title: 'Fire' },
      headers,
    ),
    201,
  )
const createAssignment = async (headers = {}) => {
  const ship = await createShip()
  const user = await org.addUser('crew')
  return ok(await org.admin.api.post('/api/v1/assignments/', { userId: user.id, shipId: ship.id, role: 'Cook' }, headers), 201)
}
const login = (email: string, password: string, headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/token', remoteAddress, headers, payload: { email, password } })

const createPending = async () =>
  ok(
    await org.admin.api.post('/api/v1/shared/users', {
      email: `pending-${newRequestId()}@example.test`,
      firstName: 'Pia',
      lastName: 'Lee',
      role: 'crew',
    }),
    201,
  )

const changes = (fields: Record<string, [unknown, unknown]>) => ({ changes: fields })

const CASES: Case[] = [
  {
    type: 'user.created',
    produce: async (h) => {
      const user = ok(
        await org.admin.api.post(
          '/api/v1/shared/users',
          {
            email: `new-${newRequestId()}@example.test`,
            firstName: 'Ann',
            lastName: 'Lee',
            role: 'crew',
            password: 'long enough password',
          },
          h,
        ),
        201,
      )
      return { target: { type: 'user', id: user.id }, actor: org.admin, data: user }
    },
  },
  {
    type: 'user.updated',
    produce: async (h) => {
      const user = await org.addUser('crew')
      ok(await org.admin.api.patch(`/api/v1/shared/users/${user.id}`, { firstName: 'Renamed' }, h))
      return { target: { type: 'user', id: user.id }, actor: org.admin, data: changes({ firstName: ['Test', 'Renamed'] }) }
    },
  },
  {
    type: 'user.suspended',
    produce: async (h) => {
      const user = await org.addUser('crew')
      ok(await org.admin.api.delete(`/api/v1/shared/users/${user.id}`, h), 204)
      return { target: { type: 'user', id: user.id }, actor: org.admin, data: changes({ state: ['active', 'suspended'] }) }
    },
  },
  {
    type: 'user.restored',
    produce: async (h) => {
      const user = await org.addUser('crew')
      ok(await org.admin.api.delete(`/api/v1/shared/users/${user.id}`), 204)
      ok(await org.admin.api.patch(`/api/v1/shared/users/${user.id}`, { state: 'active' }, h))
      return { target: { type: 'user', id: user.id }, actor: org.admin, data: changes({ state: ['suspended', 'active'] }) }
    },
  },
  {
    type: 'user.invited',
    produce: async (h) => {
      const user = await createPending()
      const link = ok(await org.admin.api.post(`/api/v1/shared/users/${user.id}/invitation`, undefined, h), 201)
      return { target: { type: 'user', id: user.id }, actor: org.admin, data: { expiresAt: link.expiresAt } }
    },
  },
  {
    type: 'user.password_reset_issued',
    produce: async (h) => {
      const user = await org.addUser('crew')
      const link = ok(await org.admin.api.post(`/api/v1/shared/users/${user.id}/password-reset`, undefined, h), 201)
      return { target: { type: 'user', id: user.id }, actor: org.admin, data: { expiresAt: link.expiresAt } }
    },
  },
  {
    type: 'ship.created',
    produce: async (h) => {
      const ship = await createShip(h)
      return { target: { type: 'ship', id: ship.id }, actor: org.admin, data: ship }
    },
  },
  {
    type: 'ship.updated',
    produce: async (h) => {
      const ship = await createShip()
      ok(await org.admin.api.patch(`/api/v1/shared/ships/${ship.id}`, { flag: 'Norway', name: ship.name }, h))
      return { target: { type: 'ship', id: ship.id }, actor: org.admin, data: changes({ flag: [null, 'Norway'] }) }
    },
  },
  {
    type: 'ship.deleted',
    produce: async (h) => {
      const ship = await createShip()
      ok(await org.admin.api.delete(`/api/v1/shared/ships/${ship.id}`, h), 204)
      return { target: { type: 'ship', id: ship.id }, actor: org.admin, data: ship }
    },
  },
  {
    type: 'identity_document.created',
    produce: async (h) => {
      const document = await createDocument(h)
      return { target: { type: 'identity_document', id: document.id }, actor: org.admin, data: document }
    },
  },
  {
    type: 'identity_document.updated',
    produce: async (h) => {
      const document = await createDocument()
      ok(await org.admin.api.patch(`/api/v1/crew/identity-documents/${document.id}`, { documentNumber: 'P2', notes: null }, h))
      return { target: { type: 'identity_document', id: document.id }, actor: org.admin, data: changes({ documentNumber: ['P1', 'P2'] }) }
    },
  },
  {
    type: 'identity_document.deleted',
    produce: async (h) => {
      const document = await createDocument()
      ok(await org.crew.api.delete(`/api/v1/crew/identity-documents/${document.id}`, h), 204)
      return { target: { type: 'identity_document', id: document.id }, actor: org.crew, data: document }
    },
  },
  {
    type: 'certificate.created',
    produce: async (h) => {
      const certificate = await createCertificate(h)
      return { target: { type: 'certificate', id: certificate.id }, actor: org.admin, data: certificate }
    },
  },
  {
    type: 'certificate.updated',
    produce: async (h) => {
      const certificate = await createCertificate()
      ok(await org.admin.api.patch(`/api/v1/crew/certificates/${certificate.id}`, { issuingAuthority: 'MCA' }, h))
      return { target: { type: 'certificate', id: certificate.id }, actor: org.admin, data: changes({ issuingAuthority: [null, 'MCA'] }) }
    },
  },
  {
    type: 'certificate.deleted',
    produce: async (h) => {
      const certificate = await createCertificate()
      ok(await org.admin.api.delete(`/api/v1/crew/certificates/${certificate.id}`, h), 204)
      return { target: { type: 'certificate', id: certificate.id }, actor: org.admin, data: certificate }
    },
  },
  {
    type: 'experience.created',
    produce: async (h) => {
      const experience = await createExperience(h)
      return { target: { type: 'experience', id: experience.id }, actor: org.crew, data: experience }
    },
  },
  {
    type: 'experience.updated',
    produce: async (h) => {
      const experience = await createExperience()
      ok(await org.crew.api.patch(`/api/v1/crew/experience/${experience.id}`, { position: 'Bosun' }, h))
      return { target: { type: 'experience', id: experience.id }, actor: org.crew, data: changes({ position: ['AB', 'Bosun'] }) }
    },
  },
  {
    type: 'experience.deleted',
    produce: async (h) => {
      const experience = await createExperience()
      ok(await org.crew.api.delete(`/api/v1/crew/experience/${experience.id}`, h), 204)
      return { target: { type: 'experience', id: experience.id }, actor: org.crew, data: experience }
    },
  },
  {
    type: 'next_of_kin.created',
    produce: async (h) => {
      const kin = ok(
        await org.crew.api.post(`/api/v1/crew/users/${org.crew.id}/next-of-kin`, { relationship: 'spouse', fullName: 'Kim Lee' }, h),
        201,
      )
      return { target: { type: 'next_of_kin', id: kin.id }, actor: org.crew, data: kin }
    },
  },
  {
    type: 'next_of_kin.updated',
    produce: async (h) => {
      const kin = ok(
        await org.crew.api.post(`/api/v1/crew/users/${org.crew.id}/next-of-kin`, { relationship: 'spouse', fullName: 'Kim Lee' }),
        201,
      )
      ok(await org.admin.api.patch(`/api/v1/crew/next-of-kin/${kin.id}`, { phone: '+47 555 0101' }, h))
      return { target: { type: 'next_of_kin', id: kin.id }, actor: org.admin, data: changes({ phone: [null, '+47 555 0101'] }) }
    },
  },
  {
    type: 'next_of_kin.deleted',
    produce: async (h) => {
      const kin = ok(
        await org.crew.api.post(`/api/v1/crew/users/${org.crew.id}/next-of-kin`, { relationship: 'brother', fullName: 'Sam Lee' }),
        201,
      )
      ok(await org.crew.api.delete(`/api/v1/crew/next-of-kin/${kin.id}`, h), 204)
      return { target: { type: 'next_of_kin', id: kin.id }, actor: org.crew, data: kin }
    },
  },
  {
    type: 'verification.submitted',
    produce: async (h) => {
      const experience = await createExperience()
      const verification = ok(await org.crew.api.post(`/api/v1/crew/experience/${experience.id}/submit`, undefined, h))
      return { target: { type: 'experience', id: experience.id }, actor: org.crew, data: verification }
    },
  },
  {
    type: 'verification.verified',
    produce: async (h) => {
      const document = await createDocument()
      const verification = ok(await org.officeEmployee.api.post(`/api/v1/crew/identity-documents/${document.id}/verify`, undefined, h))
      return { target: { type: 'identity_document', id: document.id }, actor: org.officeEmployee, data: verification }
    },
  },
  {
    type: 'verification.rejected',
    produce: async (h) => {
      const certificate = await createCertificate()
      const verification = ok(
        await org.officeAdmin.api.post(`/api/v1/crew/certificates/${certificate.id}/reject`, { reason: 'Blurred scan' }, h),
      )
      return { target: { type: 'certificate', id: certificate.id }, actor: org.officeAdmin, data: verification }
    },
  },
  {
    type: 'verification.reopened',
    produce: async (h) => {
      const document = await createDocument()
      ok(await org.admin.api.post(`/api/v1/crew/identity-documents/${document.id}/verify`))
      const edited = ok(await org.crew.api.patch(`/api/v1/crew/identity-documents/${document.id}`, { documentNumber: 'P9' }, h))
      return { target: { type: 'identity_document', id: document.id }, actor: org.crew, data: edited.verification }
    },
  },
  {
    type: 'assignment.created',
    produce: async (h) => {
      const assignment = await createAssignment(h)
      return { target: { type: 'assignment', id: assignment.id }, actor: org.admin, data: assignment }
    },
  },
  {
    type: 'assignment.updated',
    produce: async (h) => {
      const assignment = await createAssignment()
      ok(await org.officeAdmin.api.patch(`/api/v1/assignments/${assignment.id}`, { role: 'Bosun' }, h))
      return { target: { type: 'assignment', id: assignment.id }, actor: org.officeAdmin, data: changes({ role: ['Cook', 'Bosun'] }) }
    },
  },
  {
    type: 'assignment.courses_assigned',
    produce: async (h) => {
      const [assignment, courseId] = [await createAssignment(), await insertCourse(t.database.db, org.id)]
      ok(await org.admin.api.post('/api/v1/learn/assignments/bulk/courses', { assignmentIds: [assignment.id], courseIds: [courseId] }, h))
      return { target: { type: 'assignment', id: assignment.id }, actor: org.admin, data: { courseIds: [courseId] } }
    },
  },
  {
    type: 'assignment.courses_removed',
    produce: async (h) => {
      const [assignment, courseId] = [await createAssignment(), await insertCourse(t.database.db, org.id)]
      ok(await org.admin.api.post('/api/v1/learn/assignments/bulk/courses', { assignmentIds: [assignment.id], courseIds: [courseId] }))
      ok(
        await org.admin.api.post(
          '/api/v1/learn/assignments/bulk/remove-courses',
          { assignmentIds: [assignment.id], courseIds: [courseId] },
          h,
        ),
      )
      return { target: { type: 'assignment', id: assignment.id }, actor: org.admin, data: { courseIds: [courseId] } }
    },
  },
  {
    type: 'course.created',
    produce: async (h) => {
      const course = await createCourse(h)
      return { target: { type: 'course', id: course.id }, actor: org.admin, data: course }
    },
  },
  {
    type: 'course.updated',
    produce: async (h) => {
      const course = await createCourse()
      ok(await org.admin.api.patch(`/api/v1/courses/${course.id}`, { title: 'Fire at sea' }, h))
      return { target: { type: 'course', id: course.id }, actor: org.admin, data: changes({ title: ['Fire', 'Fire at sea'] }) }
    },
  },
  {
    type: 'course.deleted',
    produce: async (h) => {
      const course = await createCourse()
      ok(await org.admin.api.delete(`/api/v1/courses/${course.id}`, h), 204)
      return { target: { type: 'course', id: course.id }, actor: org.admin, data: course }
    },
  },
  {
    type: 'curriculum.created',
    produce: async (h) => {
      const curriculum = ok(await org.admin.api.post('/api/v1/learn/curriculums', { title: 'Deck' }, h), 201)
      return { target: { type: 'curriculum', id: curriculum.id }, actor: org.admin, data: curriculum }
    },
  },
  {
    type: 'curriculum.updated',
    produce: async (h) => {
      const curriculum = ok(await org.admin.api.post('/api/v1/learn/curriculums', { title: 'Deck' }), 201)
      const course = await createCourse()
      ok(await org.admin.api.post(`/api/v1/learn/curriculums/${curriculum.id}/courses?course_id=${course.id}`, undefined, h))
      const courses = [[], [{ courseId: course.id, title: 'Fire' }]] as [unknown, unknown]
      return { target: { type: 'curriculum', id: curriculum.id }, actor: org.admin, data: changes({ courses }) }
    },
  },
  {
    type: 'curriculum.deleted',
    produce: async (h) => {
      const curriculum = ok(await org.admin.api.post('/api/v1/learn/curriculums', { title: 'Engine' }), 201)
      ok(await org.admin.api.delete(`/api/v1/learn/curriculums/${curriculum.id}`, h), 204)
      return { target: { type: 'curriculum', id: curriculum.id }, actor: org.admin, data: curriculum }
    },
  },
  ...([true, false] as const).map(
    (passed): Case => ({
      type: passed ? 'registration.passed' : 'registration.failed',
      produce: async (h) => {
        const { registrationId } = await enroll(t.database.db, org.id, org.crew.id)
        const attemptId = crypto.randomUUID()
        const body = { attemptId, passed, score_percent: passed ? 90 : 40 }
        const registration = ok(await org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/attempts`, body, h), 201)
        return { target: { type: 'registration', id: registrationId }, actor: org.crew, data: { ...registration, attempt_id: attemptId } }
      },
    }),
  ),
  {
    type: 'registration.waived',
    produce: async (h) => {
      const { courseId } = await packagedCourse(t.database.db, org.id, [{ moveOn: 'Passed' }, { moveOn: 'Completed' }])
      const { registrationId } = await enroll(t.database.db, org.id, org.crew.id, { courseId })
      const body = { auIndex: 1, reason: 'Equivalent AU' }
      const registration = ok(await org.admin.api.post(`/api/v1/learn/registrations/${registrationId}/waive`, body, h))
      return { target: { type: 'registration', id: registrationId }, actor: org.admin, data: { ...registration, ...body } }
    },
  },
  {
    type: 'learning_session.abandoned',
    produce: async (h) => {
      const { courseId } = await packagedCourse(t.database.db, org.id, [{}])
      const { registrationId } = await enroll(t.database.db, org.id, org.crew.id, { courseId })
      const launched = ok(await org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/launch`, {}), 201)
      const session = ok(await org.admin.api.post(`/api/v1/learn/sessions/${launched.sessionId}/abandon`, undefined, h))
      return { target: { type: 'learning_session', id: launched.sessionId }, actor: org.admin, data: { ...session, registrationId } }
    },
  },
  ...(['ready', 'rejected'] as const).map(
    (status): Case => ({
      type: `upload.${status}`,
      produce: async (h) => {
        // A PNG declared as a PDF is rejected when its content is sniffed.
        const { uploadId, finalized } = await uploadFile(t.app, org.crew.api, PNG_3X2, status === 'ready' ? 'image/png' : 'application/pdf')
        expect(finalized.body.status).toBe(status)
        // The finalize that processed it is the one under test: its request id is looked up below.
        h['x-request-id'] = finalized.headers['x-request-id'] as string
        return { target: { type: 'upload', id: uploadId }, actor: org.crew, data: { ...finalized.body, downloadUrl: null } }
      },
    }),
  ),
  {
    type: 'auth.login_failed',
    produce: async (h) => {
      expect((await login(org.officeEmployee.email, 'wrong password', h)).statusCode).toBe(401)
      return {
        target: { type: 'user', id: org.officeEmployee.id },
        actor: null,
        data: { email: org.officeEmployee.email, address: '127.0.0.1' },
      }
    },
  },
  {
    type: 'auth.throttled',
    produce: async (h) => {
      // Ten failures from one address for one e-mail, then that pair is throttled (DECISIONS §9).
      const address = `2001:db8:${randomBytes(2).toString('hex')}::1`
      for (let i = 0; i < 10; i++) expect((await login(org.crew.email, 'wrong password', {}, address)).statusCode).toBe(401)
      expect((await login(org.crew.email, PASSWORD, h, address)).statusCode).toBe(429)
      return { target: { type: 'user', id: org.crew.id }, actor: null, data: { email: org.crew.email, address } }
    },
  },
  {
    type: 'auth.password_set',
    produce: async (h) => {
      const user = await createPending()
      const token = user.invitation.url.split('/').pop()
      const url = `/api/v1/auth/invitations/${token}/accept`
      expect((await t.app.inject({ method: 'POST', url, headers: h, payload: { password: PASSWORD } })).statusCode).toBe(200)
      return { target: { type: 'user', id: user.id }, actor: { id: user.id, role: 'crew' } as TestUser, data: { via: 'invitation' } }
    },
  },
  {
    type: 'auth.refresh_reused',
    produce: async (h) => {
      const user = await org.addUser('crew')
      const { refresh_token } = (await login(user.email, PASSWORD, {})).json()
      const refresh = (headers: Record<string, string>) =>
        t.app.inject({ method: 'POST', url: '/api/v1/auth/token', headers, payload: { grant_type: 'refresh_token', refresh_token } })
      expect((await refresh({})).statusCode).toBe(200)
      expect((await refresh(h)).statusCode).toBe(401)
      return { target: { type: 'user', id: user.id }, actor: null, data: {} }
    },
  },
  {
    type: 'organization.updated',
    produce: async (h) => {
      const before = ok(await org.admin.api.get('/api/v1/shared/organization'))
      ok(await org.admin.api.patch('/api/v1/shared/organization', { name: `${before.name} Renamed` }, h))
      return {
        target: { type: 'organization', id: org.id },
        actor: org.admin,
        data: changes({ name: [before.name, `${before.name} Renamed`] }),
      }
    },
  },
  {
    type: 'requirements.updated',
    produce: async (h) => {
      const items = [{ role: 'Cook', documentTypes: ['passport'], certificateTypes: ['medical'] }]
      ok(await org.admin.api.put('/api/v1/crew/requirements', { items }, h))
      return { target: { type: 'organization', id: org.id }, actor: org.admin, data: changes({ items: [[], items.map((item) => ({ ...item, minSeaServiceDays: null }))] }) }
    },
  },
  {
    type: 'xapi_credential.created',
    produce: async (h) => {
      const { secret: _, ...credential } = await createXapiCredential(h)
      return { target: { type: 'xapi_credential', id: credential.id }, actor: org.admin, data: credential }
    },
  },
  {
    type: 'xapi_credential.deleted',
    produce: async (h) => {
      const { secret: _, ...credential } = await createXapiCredential()
      ok(await org.admin.api.delete(`/api/v1/learn/xapi/credentials/${credential.id}`, h), 204)
      return { target: { type: 'xapi_credential', id: credential.id }, actor: org.admin, data: credential }
    },
  },
  {
    type: 'xapi_credential.created',
    produce: async (h) => {
      const { secret: _secret, ...credential } = ok(await org.admin.api.post('/api/v1/learn/xapi/credentials', { name: 'LMS' }, h), 201)
      return { target: { type: 'xapi_credential', id: credential.id }, actor: org.admin, data: credential }
    },
  },
  {
    type: 'xapi_credential.deleted',
    produce: async (h) => {
      const { secret: _secret, ...credential } = ok(await org.admin.api.post('/api/v1/learn/xapi/credentials', { name: 'LMS' }), 201)
      expect((await org.admin.api.delete(`/api/v1/learn/xapi/credentials/${credential.id}`, h)).status).toBe(204)
      return { target: { type: 'xapi_credential', id: credential.id }, actor: org.admin, data: credential }
    },
  },
]

/** The events of one request, as the audit API lists them to an admin, without the names it adds (test/modules/platform/audit). */
async function eventsOf(requestId: string, type: string) {
  const page = ok(await org.admin.api.get(`/api/v1/shared/audit-events?type=${type}&limit=1000`))
  return page.items
    .filter((event: { requestId: string }) => event.requestId === requestId)
    .map(({ actorName: _a, personId: _i, personName: _p, targetKind: _k, targetName: _n, ...event }: Record<string, unknown>) => event)
}

describe('every event type comes from the route that should write it (DECISIONS §11)', () => {
  it.each(CASES)('$type', async ({ type, produce }) => {
    const headers: Record<string, string> = { 'x-request-id': newRequestId() }
    const { target, actor, data } = await produce(headers)
    const events = await eventsOf(headers['x-request-id'], type)
    expect(events).toEqual([
      {
        id: expect.any(String),
        type,
        occurredAt: expect.any(String),
        organizationId: org.id,
        actor: actor && { userId: actor.id, role: actor.role },
        target,
        data,
        requestId: headers['x-request-id'],
      },
    ])
  })

  // Course imports write theirs from the import job (test/modules/learning/packages checks them).
  it('covers every type but the webhook, expiry and course import ones', async () => {
    const { EVENT_TYPES } = await import('../../../../src/modules/platform/audit/event-types.js')
    const covered = new Set(CASES.map((c) => c.type))
    expect(EVENT_TYPES.filter((type) => !covered.has(type) && !/^(webhook|document|course_import)\./.test(type))).toEqual([])
  })
})
