import { sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, insertCourse, type TestOrg, type TestUser } from '../../../factories.js'
import { addDays } from '../../../../src/lib/dates.js'
import { createAssignment, createShip, type TestShip } from '../../../fixtures/assignments.js'
import { addRecord, addRegistration, addVerified, review, setRequirements, setSettings } from '../../../fixtures/readiness.js'

// The ship summary reuses verdicts stored by earlier summaries (migration 1801). Each test reads a
// summary (storing its verdicts), changes one thing the verdicts depend on (through the API where it has
// a way), and reads again: the summary must show the change, and always agree with the fleet list,
// which judges afresh.

const t = useTestApp()
const db = () => t.database.db
const AS_OF = '2030-01-10'
const END = '2030-06-30'
const onPostgres = Boolean(process.env.TEST_DATABASE_URL)

interface Crew {
  org: TestOrg
  ship: TestShip
  user: TestUser
  assignmentId: string
}

/** An organization requiring a passport of everyone, and one crew member on one ship, with nothing yet. */
async function crew(fields: Record<string, unknown> = {}): Promise<Crew> {
  const org = await createOrg(t.app, db())
  await setRequirements(org, [{ role: '*', documentTypes: ['passport'] }])
  const ship = await createShip(org)
  const user = await org.addUser('crew')
  const assignmentId = (await createAssignment(org, user, ship, { endDate: END, ...fields })).id
  return { org, ship, user, assignmentId }
}

/** The summary, checked against the fleet list's live verdicts of the same ship. */
async function summary({ org, ship }: Pick<Crew, 'org' | 'ship'>, asOf = AS_OF) {
  const res = await org.admin.api.get(`/api/v1/shared/ships/${ship.id}/readiness?as_of=${asOf}`)
  expect(res.status).toBe(200)
  const fleet = await org.admin.api.get(`/api/v1/learn/readiness?as_of=${asOf}&ship_id=${ship.id}&limit=100`)
  const byCode: Record<string, number> = {}
  for (const code of fleet.body.items.flatMap((item: { codes: string[] }) => item.codes)) byCode[code] = (byCode[code] ?? 0) + 1
  const ready = fleet.body.items.filter((item: { ready: boolean }) => item.ready).length
  expect(res.body).toEqual({
    shipId: ship.id,
    asOf,
    assignments: fleet.body.items.length,
    ready,
    notReady: fleet.body.items.length - ready,
    byCode,
  })
  return res.body.byCode as Record<string, number>
}

const storedCount = async (assignmentId: string) =>
  (await db().selectFrom('readiness_verdicts').select('assignment_id').where('assignment_id', '=', assignmentId).execute()).length

describe('stored verdicts', () => {
  it('are stored by a summary and used by the next one', async () => {
    const c = await crew()
    expect(await summary(c)).toEqual({ document_missing: 1 })
    expect(await storedCount(c.assignmentId)).toBe(1)
    // Proof the second summary reads the stored verdict: a verdict changed behind the rules' back shows.
    await db()
      .updateTable('readiness_verdicts')
      .set({ codes: ['course_overdue'] })
      .where('assignment_id', '=', c.assignmentId)
      .execute()
    const res = await c.org.admin.api.get(`/api/v1/shared/ships/${c.ship.id}/readiness?as_of=${AS_OF}`)
    expect(res.body.byCode).toEqual({ course_overdue: 1 })
  })

  it('follow identity documents created, edited, reviewed and deleted', async () => {
    const c = await crew()
    expect(await summary(c)).toEqual({ document_missing: 1 })
    const passport = await addRecord(c.org, c.user, 'passport', addDays(AS_OF, -1))
    expect(await summary(c)).toEqual({ document_expired: 1, document_unverified: 1 })
    const edit = await c.org.admin.api.patch(`/api/v1/crew/identity-documents/${passport.id}`, { expiryDate: '2040-01-01' })
    expect(edit.status).toBe(200)
    expect(await summary(c)).toEqual({ document_unverified: 1 })
    await review(c.org, passport, 'verify')
    expect(await summary(c)).toEqual({})
    expect((await c.org.admin.api.delete(`/api/v1/crew/identity-documents/${passport.id}`)).status).toBe(204)
    expect(await summary(c)).toEqual({ document_missing: 1 })
  })

  it('follow certificates and their rejection', async () => {
    const c = await crew()
    await setRequirements(c.org, [{ role: '*', certificateTypes: ['medical'] }])
    expect(await summary(c)).toEqual({ document_missing: 1 })
    const medical = await addRecord(c.org, c.user, 'medical', '2040-01-01')
    expect(await summary(c)).toEqual({ document_unverified: 1 })
    await review(c.org, medical, 'reject')
    expect(await summary(c)).toEqual({ document_rejected: 1 })
    expect((await c.org.admin.api.delete(`/api/v1/crew/certificates/${medical.id}`)).status).toBe(204)
    expect(await summary(c)).toEqual({ document_missing: 1 })
  })

  it("follow the requirements matrix and the organization's settings", async () => {
    const c = await crew()
    await addVerified(c.org, c.user, 'passport', addDays(END, 5))
    expect(await summary(c)).toEqual({ document_expiring_soon: 1 })
    await setSettings(c.org, { validityMarginDays: { passport: 10 } })
    expect(await summary(c)).toEqual({ document_expires_during_assignment: 1 })
    await setSettings(c.org, { validityMarginDays: { passport: 0 }, expiryWindowDays: { passport: 4 } })
    expect(await summary(c)).toEqual({})
    await setRequirements(c.org, [{ role: '*', documentTypes: ['passport', 'seaman_book'] }])
    expect(await summary(c)).toEqual({ document_missing: 1 })
  })

  it("follow the assignment's role and dates, and its deletion", async () => {
    const c = await crew({ startDate: '2030-01-01' })
    await addVerified(c.org, c.user, 'passport', '2040-01-01')
    await setRequirements(c.org, [
      { role: '*', documentTypes: ['passport'] },
      { role: 'Captain', certificateTypes: ['deck_certificate'] },
    ])
    expect(await summary(c)).toEqual({})
    const patch = (body: Record<string, unknown>) => c.org.admin.api.patch(`/api/v1/assignments/${c.assignmentId}`, body)
    expect((await patch({ role: 'captain' })).status).toBe(200)
    expect(await summary(c)).toEqual({ document_missing: 1 })
    expect((await patch({ role: 'Bosun' })).status).toBe(200)
    await addRegistration(db(), c.org.id, c.assignmentId, 'in_progress')
    expect(await summary(c)).toEqual({ course_not_passed: 1 })
    expect((await patch({ dueDate: addDays(AS_OF, -1) })).status).toBe(200)
    expect(await summary(c)).toEqual({ course_overdue: 1 })
    expect((await patch({ endDate: addDays(AS_OF, -1) })).status).toBe(200)
    expect(await summary(c)).toEqual({})
    expect((await patch({ endDate: END })).status).toBe(200)
    expect(await summary(c)).toEqual({ course_overdue: 1 })
    // The API deletes no assignment; the database takes a deleted one's verdict along all the same.
    await db().deleteFrom('registrations').where('assignment_id', '=', c.assignmentId).execute()
    await db().deleteFrom('assignments').where('id', '=', c.assignmentId).execute()
    expect(await storedCount(c.assignmentId)).toBe(0)
  })

  it('follow courses assigned, passed and removed', async () => {
    const c = await crew({ dueDate: '2040-01-01' })
    await addVerified(c.org, c.user, 'passport', '2040-01-01')
    expect(await summary(c)).toEqual({})
    const [x, y] = [await insertCourse(db(), c.org.id), await insertCourse(db(), c.org.id)]
    const assign = await c.org.admin.api.post('/api/v1/learn/assignments/bulk/courses', {
      assignmentIds: [c.assignmentId],
      courseIds: [x, y],
    })
    expect(assign.status).toBe(200)
    expect(await summary(c)).toEqual({ course_not_passed: 1 })
    const registrations = await db()
      .selectFrom('registrations')
      .select(['id', 'course_id'])
      .where('assignment_id', '=', c.assignmentId)
      .execute()
    const ofX = registrations.find((row) => row.course_id === x)!.id
    const attempt = await c.user.api.post(`/api/v1/learn/registrations/${ofX}/attempts`, {
      attemptId: uuidv7(),
      passed: true,
      score_percent: 90,
      time_spent_seconds: 60,
    })
    expect(attempt.status).toBe(201)
    expect(await summary(c)).toEqual({ course_not_passed: 1 })
    const removed = await c.org.admin.api.post('/api/v1/learn/assignments/bulk/remove-courses', {
      assignmentIds: [c.assignmentId],
      courseIds: [y],
    })
    expect(removed.status).toBe(200)
    expect(await summary(c)).toEqual({})
  })

  it('are judged again for another date, and for the date judged before', async () => {
    const c = await crew()
    await addVerified(c.org, c.user, 'passport', addDays(AS_OF, 1))
    expect(await summary(c)).toEqual({ document_expires_during_assignment: 1 })
    expect(await summary(c, addDays(AS_OF, 2))).toEqual({ document_expired: 1 })
    expect(await summary(c)).toEqual({ document_expires_during_assignment: 1 })
  })

  // A summary judged while a change is not yet committed stores a verdict of the old records, with the
  // old generation: once the change commits, that verdict must not be used.
  it.runIf(onPostgres)('judged while a record changes, is not used once the change commits', async () => {
    const c = await crew()
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`insert into identity_documents (id, organization_id, user_id, document_type, expiry_date, uploaded_by_user_id)
          values (${uuidv7()}, ${c.org.id}, ${c.user.id}, 'passport', '2040-01-01', ${c.org.admin.id})`.execute(trx)
        // Another connection: the summary cannot see the passport yet, and stores what it saw.
        expect(await summary(c)).toEqual({ document_missing: 1 })
        expect(await storedCount(c.assignmentId)).toBe(1)
      })
    expect(await summary(c)).toEqual({ document_unverified: 1 })
  })
})
