import { v7 as uuidv7 } from 'uuid'
import { expect } from 'vitest'
import type { App } from '../src/app.js'
import { PNG_3X2, uploadFile } from '../src/modules/uploads/uploads.test-helpers.js'
import type { Client, Reply } from './app.js'
import { nextImo } from './factories.js'

// Rows of every kind for one person, made through the API, for the tenancy sweep.

/** The ids of one person's rows, one of each kind. */
export interface Seeded {
  user: string
  ship: string
  upload: string
  document: string
  certificate: string
  experience: string
  nextOfKin: string
  course: string
  curriculum: string
  assignment: string
  registration: string
}
export type Kind = keyof Seeded

/** Ids of the same kinds that exist nowhere: the answer a stranger's row must be identical to. */
export const unknownIds = (): Seeded =>
  Object.fromEntries(
    [
      'user',
      'ship',
      'upload',
      'document',
      'certificate',
      'experience',
      'nextOfKin',
      'course',
      'curriculum',
      'assignment',
      'registration',
    ].map((kind) => [kind, uuidv7()]),
  ) as unknown as Seeded

async function created(reply: Promise<Reply>, status = 201): Promise<any> {
  const res = await reply
  expect(res.status, res.text).toBe(status)
  return res.body
}

/**
 * One of everything for `user`: the organization's admin makes the ship, courses and assignment;
 * `owner` (the person themselves, or the admin for a person without a token) makes the upload,
 * the crew records and the attempt, (a new document awaits review).
 */
export async function seed(app: App, orgId: string, admin: Client, owner: Client, user: string): Promise<Seeded> {
  const crew = (path: string) => `/api/v1/crew/users/${user}/${path}`
  const ship = (await created(admin.post('/api/v1/shared/ships', { name: `MV ${uuidv7().slice(-6)}`, imoNumber: nextImo() }))).id
  const { uploadId: upload, finalized } = await uploadFile(app, owner, PNG_3X2, 'image/png', 'scan.png')
  expect(finalized.status).toBe(200)
  const dates = { issueDate: '2024-01-01', expiryDate: '2031-01-01' }
  const document = (await created(owner.post(crew('identity-documents'), { documentType: 'passport', uploadId: upload, ...dates }))).id
  const certificate = (await created(owner.post(crew('certificates'), { certificateType: 'medical', ...dates }))).id
  const experience = (await created(owner.post(crew('experience'), { companyName: 'Acme', position: 'Bosun', startDate: '2020-01-01' }))).id
  const nextOfKin = (await created(owner.post(crew('next-of-kin'), { relationship: 'spouse', fullName: 'Pat Doe' }))).id
  const course = (
    await created(admin.post('/api/v1/courses', { organization_id: orgId, s3_path: 'c/1', launch_file: 'index.html', title: 'Safety' }))
  ).id
  const curriculum = (await created(admin.post('/api/v1/learn/curriculums', { title: 'Deck' }))).id
  await created(admin.post(`/api/v1/learn/curriculums/${curriculum}/courses?course_id=${course}`), 200)
  const assignment = (await created(admin.post('/api/v1/assignments', { userId: user, shipId: ship, role: 'Bosun' }))).id
  await created(admin.post('/api/v1/learn/assignments/bulk/courses', { assignmentIds: [assignment], curriculumId: curriculum }), 200)
  const registrations = await created(admin.get(`/api/v1/learn/registrations?assignment_id=${assignment}`), 200)
  const registration = registrations.items[0].id
  await created(
    owner.post(`/api/v1/learn/registrations/${registration}/attempts`, { attemptId: uuidv7(), passed: false, score_percent: 40 }),
  )
  return { user, ship, upload, document, certificate, experience, nextOfKin, course, curriculum, assignment, registration }
}

/** Everything a reader can see of the seeded rows, for before/after comparison. */
export async function snapshot(reader: Client, s: Seeded): Promise<Record<string, unknown>> {
  const paths = [
    `/api/v1/shared/users/${s.user}`,
    `/api/v1/shared/ships/${s.ship}`,
    `/api/v1/shared/uploads/${s.upload}`,
    `/api/v1/crew/identity-documents/${s.document}`,
    `/api/v1/crew/certificates/${s.certificate}`,
    ...['identity-documents', 'certificates', 'experience', 'next-of-kin', 'verification'].map((p) => `/api/v1/crew/users/${s.user}/${p}`),
    `/api/v1/courses/${s.course}`,
    `/api/v1/learn/curriculums/${s.curriculum}`,
    `/api/v1/assignments/${s.assignment}`,
    `/api/v1/learn/registrations/${s.registration}`,
  ]
  const replies = await Promise.all(paths.map((path) => reader.get(path)))
  // The download link is signed afresh on every read.
  const stable = (body: any) => (body?.downloadUrl ? { ...body, downloadUrl: 'signed' } : body)
  return Object.fromEntries(paths.map((path, i) => [path, [replies[i].status, stable(replies[i].body)]]))
}

/** A reply with the given ids written as their kind, so a stranger's row and a missing one compare equal. */
export function masked(res: Reply, ...idSets: Seeded[]): { status: number; body: unknown } {
  let text = res.text
  for (const ids of idSets) for (const [kind, id] of Object.entries(ids)) text = text.replaceAll(id, `<${kind}>`)
  return { status: res.status, body: text ? JSON.parse(text) : undefined }
}
