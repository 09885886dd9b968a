import { expect } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { assign, createCrew, ok, signIn } from './seed.js'

// Courses from packages for the player tests: uploaded and imported through the service's own flow, and
// crew members registered on them.

/** Upload and import a package: the course id. */
export async function importCourse(admin: SeaworthyClient, zip: Buffer): Promise<string> {
  const intent = await ok(
    admin.POST('/api/v1/shared/uploads/intent', {
      body: { kind: 'course_package', mime: 'application/zip', size: zip.length, filename: 'course.zip' },
    }),
  )
  const form = new FormData()
  for (const [name, value] of Object.entries(intent.presignedPost.fields)) form.append(name, value)
  form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'course.zip')
  expect((await fetch(intent.presignedPost.url, { method: 'POST', body: form })).ok).toBe(true)
  await ok(admin.POST('/api/v1/shared/uploads/{upload_id}/finalize', { params: { path: { upload_id: intent.uploadId } } }))
  const started = await ok(admin.POST('/api/v1/learn/course-imports', { body: { uploadId: intent.uploadId } }))
  for (;;) {
    const job = await ok(admin.GET('/api/v1/learn/course-imports/{import_id}', { params: { path: { import_id: started.id } } }))
    if (job.status !== 'running') {
      expect(job).toMatchObject({ status: 'complete', courseId: expect.any(String) })
      return job.courseId!
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

let people = 0
/** A crew member of their own on an assignment, registered on the course: their client, ids and the registration id. */
export async function registeredLearner(baseUrl: string, admin: SeaworthyClient, shipId: string, courseId: string) {
  const person = await createCrew(admin, 'Scorm', `Learner${++people}${Date.now() % 100000}`)
  const assignment = await assign(admin, person.id, shipId, 'AB')
  await ok(admin.POST('/api/v1/learn/assignments/bulk/courses', { body: { assignmentIds: [assignment.id], courseIds: [courseId] } }))
  const crew = await signIn(baseUrl, person.email)
  const registrations = await ok(crew.GET('/api/v1/learn/registrations', { params: { query: { assignment_id: assignment.id } } }))
  return {
    crew,
    email: person.email,
    userId: person.id,
    assignmentId: assignment.id,
    registrationId: registrations.items.find((r) => r.course_id === courseId)!.id,
  }
}

/** The registration once `attempts` sessions have ended (the final commit is a beacon: it lands a moment later). */
export async function registrationAfter(crew: SeaworthyClient, registrationId: string, attempts: number) {
  // A safety net, not a speed assumption: a busy machine may take long to store it.
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const registration = await ok(
      crew.GET('/api/v1/learn/registrations/{registration_id}', { params: { path: { registration_id: registrationId } } }),
    )
    if (registration.attempt_count >= attempts) return registration
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the session did not end')
}
