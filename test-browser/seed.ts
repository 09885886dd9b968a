import { PDFDocument, StandardFonts } from 'pdf-lib'
import { createSeaworthyClient, type SeaworthyClient } from '../client/index.js'

export const PASSWORD = 'browser test password 1'

/** Returns the data of a typed-client call, or fails with the service's answer. */
async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call
  if (error !== undefined || !response.ok) throw new Error(`${response.url}: ${response.status} ${JSON.stringify(error)}`)
  return data as T
}

export async function signIn(baseUrl: string, email: string, password = PASSWORD): Promise<SeaworthyClient> {
  const token = await ok(createSeaworthyClient({ baseUrl }).POST('/api/v1/auth/token', { body: { email, password } }))
  return createSeaworthyClient({ baseUrl, token: token.access_token })
}

/** A valid IMO number (the seventh digit is the weighted check digit). */
function imo(n: number): string {
  const base = String(n % 1_000_000).padStart(6, '0')
  return base + ([...base].reduce((sum, digit, i) => sum + Number(digit) * (7 - i), 0) % 10)
}

type Role = 'admin' | 'office_admin' | 'office_employee' | 'crew'

/** A signed-up person of any role, with the tests' password. */
export async function createPerson(api: SeaworthyClient, firstName: string, lastName: string, role: Role) {
  const email = `${firstName}.${lastName}@browser.test`.toLowerCase()
  return ok(api.POST('/api/v1/shared/users', { body: { email, firstName, lastName, role, password: PASSWORD } }))
}

export const createCrew = (api: SeaworthyClient, firstName: string, lastName: string) => createPerson(api, firstName, lastName, 'crew')

export async function createShip(api: SeaworthyClient, name: string) {
  return ok(api.POST('/api/v1/shared/ships', { body: { name, imoNumber: imo(Date.now()) } }))
}

export async function requirePassport(api: SeaworthyClient, role: string) {
  return ok(api.PUT('/api/v1/crew/requirements', { body: { items: [{ role, documentTypes: ['passport'], certificateTypes: [] }] } }))
}

export async function assign(
  api: SeaworthyClient,
  userId: string,
  shipId: string,
  role: string,
  dates: { startDate?: string; endDate?: string } = {},
) {
  return ok(api.POST('/api/v1/assignments/', { body: { userId, shipId, role, ...dates } }))
}

/** A one-page PDF, as a scanned passport would arrive. */
export async function passportPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const page = pdf.addPage([420, 595])
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  page.drawText('PASSPORT', { x: 40, y: 520, size: 36, font })
  page.drawText('Rob Review · P1234567', { x: 40, y: 480, size: 18, font })
  return pdf.save()
}

/** Intent, the presigned POST and finalize, as a crew app uploads: the finished upload's id. */
export async function uploadPassportScan(api: SeaworthyClient): Promise<string> {
  const file = await passportPdf()
  const intent = await ok(
    api.POST('/api/v1/shared/uploads/intent', {
      body: { kind: 'identity_document', mime: 'application/pdf', size: file.length, filename: 'passport.pdf' },
    }),
  )
  const form = new FormData()
  for (const [name, value] of Object.entries(intent.presignedPost.fields)) form.append(name, value)
  form.append('file', new Blob([new Uint8Array(file)], { type: 'application/pdf' }), 'passport.pdf')
  const posted = await fetch(intent.presignedPost.url, { method: 'POST', body: form })
  if (!posted.ok) throw new Error(`upload POST: ${posted.status} ${await posted.text()}`)
  await ok(api.POST('/api/v1/shared/uploads/{upload_id}/finalize', { params: { path: { upload_id: intent.uploadId } } }))
  return intent.uploadId
}

export async function createPassport(api: SeaworthyClient, userId: string, uploadId: string) {
  return ok(
    api.POST('/api/v1/crew/users/{user_id}/identity-documents', {
      params: { path: { user_id: userId } },
      body: { documentType: 'passport', documentNumber: 'P1234567', issuingCountry: 'NO', expiryDate: '2031-05-01', uploadId },
    }),
  )
}

export { ok }

/** A course on the assignment with one failed and one passed attempt, so course difficulty has numbers to draw. */
export async function courseWithAttempts(api: SeaworthyClient, assignmentId: string, title: string) {
  const me = await ok(api.GET('/api/v1/users/me'))
  const course = await ok(
    api.POST('/api/v1/courses/', {
      body: { organization_id: me.organization.id, s3_path: 'courses/fire', launch_file: 'index.html', title },
    }),
  )
  await ok(api.POST('/api/v1/learn/assignments/bulk/courses', { body: { assignmentIds: [assignmentId], courseIds: [course.id] } }))
  const registrations = await ok(api.GET('/api/v1/learn/registrations', { params: { query: { assignment_id: assignmentId } } }))
  const registration = registrations.items.find((r) => r.course_id === course.id)
  if (!registration) throw new Error('the course was not registered on the assignment')
  for (const passed of [false, true]) {
    const path = { registration_id: registration.id }
    await ok(
      api.POST('/api/v1/learn/registrations/{registration_id}/attempts', {
        params: { path },
        body: { attemptId: crypto.randomUUID(), passed },
      }),
    )
  }
  return course
}

/** A medical certificate with no file: it queues for review behind anything submitted before it. */
export async function createMedical(api: SeaworthyClient, userId: string) {
  return ok(
    api.POST('/api/v1/crew/users/{user_id}/certificates', {
      params: { path: { user_id: userId } },
      body: { certificateType: 'medical', certificateNumber: 'MED-77', issuingAuthority: 'Port clinic', expiryDate: '2027-08-01' },
    }),
  )
}
