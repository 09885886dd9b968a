import { sql } from 'kysely'
import { expect } from 'vitest'
import { insertCourse, type TestOrg, type TestUser } from '../../../test/factories.js'
import type { Db } from '../../db/database.js'
import type { RegistrationStatus } from '../../db/schema.js'
import { DOCUMENT_TYPES, type RecordType } from '../../db/schema.js'
import { type AssignmentInput, createAssignment, createShip } from '../assignments/assignments.fixtures.js'
import { insertRegistration } from '../registrations/registrations.fixtures.js'

// Test factories of the readiness tests: records go through the API (so verifications exist as in
// production); registrations and their status are written straight to the database.

const isDocument = (type: RecordType) => (DOCUMENT_TYPES as readonly string[]).includes(type)
const pathOf = (type: RecordType) => (isDocument(type) ? 'identity-documents' : 'certificates')

export interface RecordRef {
  id: string
  type: RecordType
}

/** An identity document or certificate of `type` for `user`, created by the admin (verification pending). */
export async function addRecord(org: TestOrg, user: TestUser, type: RecordType, expiryDate: string | null = null): Promise<RecordRef> {
  const field = isDocument(type) ? 'documentType' : 'certificateType'
  const res = await org.admin.api.post(`/api/v1/crew/users/${user.id}/${pathOf(type)}`, { [field]: type, expiryDate })
  expect(res.status).toBe(201)
  return { id: res.body.id, type }
}

export async function review(org: TestOrg, record: RecordRef, action: 'verify' | 'reject'): Promise<void> {
  const res = await org.officeEmployee.api.post(
    `/api/v1/crew/${pathOf(record.type)}/${record.id}/${action}`,
    action === 'reject' ? { reason: 'Unreadable' } : {},
  )
  expect(res.status).toBe(200)
}

/** A record already verified by the office. */
export async function addVerified(org: TestOrg, user: TestUser, type: RecordType, expiryDate: string | null = null): Promise<RecordRef> {
  const record = await addRecord(org, user, type, expiryDate)
  await review(org, record, 'verify')
  return record
}

/** Pins a record's creation time, for the "newest" tie-breaks. */
export async function setCreatedAt(db: Db, record: RecordRef, createdAt: string): Promise<void> {
  const table = isDocument(record.type) ? 'identity_documents' : 'certificates'
  await sql`update ${sql.table(table)} set created_at = ${createdAt}::timestamptz where id = ${record.id}`.execute(db)
}

export async function setRequirements(org: TestOrg, items: { role: string; documentTypes?: string[]; certificateTypes?: string[] }[]) {
  const res = await org.admin.api.put('/api/v1/crew/requirements', { items })
  expect(res.status).toBe(200)
}

export async function setSettings(org: TestOrg, settings: Record<string, unknown>) {
  const res = await org.admin.api.patch('/api/v1/shared/organization', { settings })
  expect(res.status).toBe(200)
}

/** A crew member with one assignment on a ship of their own. */
export async function crewOnAssignment(org: TestOrg, fields: AssignmentInput = {}) {
  const user = await org.addUser('crew')
  const assignment = await createAssignment(org, user, await createShip(org), fields)
  return { user, assignmentId: assignment.id }
}

/** A registration of the assignment for a new course, in the given status. */
export async function addRegistration(db: Db, orgId: string, assignmentId: string, status: RegistrationStatus, title?: string) {
  const courseId = await insertCourse(db, orgId, title)
  const id = await insertRegistration(db, orgId, assignmentId, courseId)
  await db.updateTable('registrations').set({ status }).where('id', '=', id).execute()
  return { id, courseId }
}

export async function readiness(user: TestUser, assignmentId: string, asOf?: string) {
  const res = await user.api.get(`/api/v1/learn/assignments/${assignmentId}/readiness${asOf ? `?as_of=${asOf}` : ''}`)
  expect(res.status).toBe(200)
  return res.body
}

/** The codes of a verdict, blockers then warnings, as `code:targetId` pairs when asked. */
export const codesOf = (verdict: { blockers: { code: string }[]; warnings: { code: string }[] }) => ({
  blockers: verdict.blockers.map((issue) => issue.code),
  warnings: verdict.warnings.map((issue) => issue.code),
})
