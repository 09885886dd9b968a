import { setTimeout as sleep } from 'node:timers/promises'
import { cmi5Package, scormPackage } from './courses.js'
import { Api, basic, formBody, send } from './http.js'
import { ADMIN, type Service } from './service.js'

// What the cases need, made through the API as an organization would: an admin (made by the CLI),
// an office admin and two crew members, a ship with an assignment for each crew member, a cmi5 and a
// SCORM course imported from packages the suite writes, both courses registered on both assignments,
// and an LRS credential.

const PASSWORD = 'hostile suite password 1'
const IMPORT_WAIT_MS = 60_000

export interface Person {
  id: string
  api: Api
}

export interface World {
  service: Service
  admin: Api
  officeAdmin: Api
  crewA: Person
  crewB: Person
  /** Basic credentials of the organization's LRS. */
  lrsAuth: string
  courses: { cmi5: string; scorm: string }
  /** Registrations by crew member and course. */
  registrations: { a: { cmi5: string; scorm: string }; b: { cmi5: string; scorm: string } }
}

export async function signIn(baseUrl: string, email: string, password: string): Promise<Api> {
  const token = await new Api(baseUrl).expect(200, 'POST', '/api/v1/auth/token', { email, password })
  return new Api(baseUrl, `Bearer ${token.access_token}`)
}

async function person(service: Service, admin: Api, role: string, name: string): Promise<Person> {
  const email = `${name}@hostile.example.test`
  const user = await admin.expect(201, 'POST', '/api/v1/shared/users', {
    email,
    firstName: name,
    lastName: 'Hostile',
    role,
    password: PASSWORD,
  })
  return { id: user.id, api: await signIn(service.baseUrl, email, PASSWORD) }
}

/** Intent, the presigned POST and finalize: the ready upload's id. */
export async function uploadPackage(api: Api, content: Buffer, signal?: AbortSignal): Promise<string> {
  const intent = await api.expect(201, 'POST', '/api/v1/shared/uploads/intent', {
    kind: 'course_package',
    mime: 'application/zip',
    size: content.length,
    filename: 'package.zip',
  })
  const { body, contentType } = await formBody(intent.presignedPost.fields, content)
  const posted = await send(intent.presignedPost.url, { method: 'POST', headers: { 'content-type': contentType }, body, signal })
  if (posted.status >= 300) throw new Error(`the presigned POST answered ${posted.status} ${posted.text.slice(0, 300)}`)
  const finalized = await api.expect(200, 'POST', `/api/v1/shared/uploads/${intent.uploadId}/finalize`)
  if (finalized.status !== 'ready') throw new Error(`the upload finalized ${finalized.status}`)
  return intent.uploadId
}

/** Starts the import of an upload and polls it until it is no longer running (or `signal` ends the wait). */
export async function importUpload(api: Api, uploadId: string, signal?: AbortSignal): Promise<any> {
  const started = await api.expect(202, 'POST', '/api/v1/learn/course-imports', { uploadId })
  for (;;) {
    signal?.throwIfAborted()
    const job = await api.expect(200, 'GET', `/api/v1/learn/course-imports/${started.id}`)
    if (job.status !== 'running') return job
    await sleep(100, undefined, { signal })
  }
}

async function importCourse(api: Api, content: Buffer): Promise<string> {
  const job = await importUpload(api, await uploadPackage(api, content), AbortSignal.timeout(IMPORT_WAIT_MS))
  if (job.status !== 'complete') throw new Error(`a valid package did not import: ${JSON.stringify(job)}`)
  return job.courseId
}

/** A valid IMO number (the seventh digit is the weighted check digit). */
const imo = (n: number) => {
  const base = String(n % 1_000_000).padStart(6, '0')
  return base + ([...base].reduce((sum, digit, i) => sum + Number(digit) * (7 - i), 0) % 10)
}

export async function seed(service: Service): Promise<World> {
  const admin = await signIn(service.baseUrl, ADMIN.email, ADMIN.password)
  const officeAdmin = (await person(service, admin, 'office_admin', 'office')).api
  const crewA = await person(service, admin, 'crew', 'crew-a')
  const crewB = await person(service, admin, 'crew', 'crew-b')
  const credential = await admin.expect(201, 'POST', '/api/v1/learn/xapi/credentials', { name: 'Hostile suite' })
  const courses = { cmi5: await importCourse(admin, cmi5Package()), scorm: await importCourse(admin, scormPackage()) }
  const ship = await admin.expect(201, 'POST', '/api/v1/shared/ships', { name: 'MV Hostile', imoNumber: imo(Date.now()) })
  const assign = (userId: string) => admin.expect(201, 'POST', '/api/v1/assignments/', { userId, shipId: ship.id, role: 'Deckhand' })
  const [assignmentA, assignmentB] = [await assign(crewA.id), await assign(crewB.id)]
  await admin.expect(200, 'POST', '/api/v1/learn/assignments/bulk/courses', {
    assignmentIds: [assignmentA.id, assignmentB.id],
    courseIds: [courses.cmi5, courses.scorm],
  })
  const registrationsOf = async (assignmentId: string) => {
    const list = await admin.expect(200, 'GET', `/api/v1/learn/registrations?assignment_id=${assignmentId}`)
    const of = (courseId: string) => list.items.find((r: { course_id: string }) => r.course_id === courseId).id as string
    return { cmi5: of(courses.cmi5), scorm: of(courses.scorm) }
  }
  return {
    service,
    admin,
    officeAdmin,
    crewA,
    crewB,
    lrsAuth: basic(credential.key, credential.secret),
    courses,
    registrations: { a: await registrationsOf(assignmentA.id), b: await registrationsOf(assignmentB.id) },
  }
}
