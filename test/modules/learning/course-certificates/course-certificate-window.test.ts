import { v7 as uuidv7 } from 'uuid'
import { expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg } from '../../../factories.js'
import { crewOnAssignment } from '../../../fixtures/readiness.js'
import { insertRegistration } from '../../../fixtures/registrations.js'

// The certificate.created of a course pass reads its expiry status with the service's EXPIRING_SOON_DAYS,
// as GET does: a year's certificate is expiring_soon within 400 days (it would be valid within 90).

const t = useTestApp({ EXPIRING_SOON_DAYS: '400' })

it("gives the issued certificate's event the status GET shows under the configured window", async () => {
  const org = await createOrg(t.app, t.database.db)
  const { user, assignmentId } = await crewOnAssignment(org)
  const body = { organization_id: org.id, s3_path: 'courses/x', launch_file: 'index.html', title: 'Basic safety' }
  const course = await org.admin.api.post('/api/v1/learn/courses', {
    ...body,
    certificate: { certificateType: 'stcw_basic_safety', validityMonths: 12 },
  })
  expect(course.status).toBe(201)
  const registrationId = await insertRegistration(t.database.db, org.id, assignmentId, course.body.id)
  const attempt = { attemptId: uuidv7(), passed: true, finished_at: new Date().toISOString() }
  expect((await user.api.post(`/api/v1/learn/registrations/${registrationId}/attempts`, attempt)).status).toBe(201)

  const listed = await org.admin.api.get(`/api/v1/crew/users/${user.id}/certificates`)
  const [certificate] = listed.body as { id: string; status: string }[]
  expect(certificate?.status).toBe('expiring_soon')
  const event = await t.database.db
    .selectFrom('events')
    .select('data')
    .where('organization_id', '=', org.id)
    .where('type', '=', 'certificate.created')
    .executeTakeFirstOrThrow()
  expect(event.data).toEqual(certificate)
})
