import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import type { RecordType } from '../../../../src/db/schema.js'
import { addDays } from '../../../../src/lib/dates.js'
import {
  addRecord,
  addRegistration,
  addVerified,
  codesOf,
  crewOnAssignment,
  readiness,
  review,
  setCreatedAt,
  setRequirements,
  setSettings,
} from '../../../fixtures/readiness.js'

let t: TestApp
let org: TestOrg

// Judged on AS_OF; assignments end on END unless open-ended. Passports need 10 days of validity past
// sign-off and have a 20-day window; seaman's books need no margin and use the default window (30).
const AS_OF = '2030-01-10'
const END = '2030-06-30'
const HORIZON = 100

beforeAll(async () => {
  t = await buildTestApp()
  org = await createOrg(t.app, t.database.db)
  await setSettings(org, {
    defaultExpiryWindowDays: 30,
    expiryWindowDays: { passport: 20 },
    validityMarginDays: { passport: 10 },
    openEndedHorizonDays: HORIZON,
  })
  await setRequirements(org, [{ role: '*', documentTypes: ['passport'] }])
})
afterAll(() => t.app.close())

/** A crew member whose only record is one verified `type` expiring on `expiry`, on an assignment ending `endDate`. */
async function verdictFor(type: RecordType, expiry: string | null, options: { endDate?: string | null; asOf?: string } = {}) {
  const { user, assignmentId } = await crewOnAssignment(org, {
    role: 'Bosun',
    endDate: options.endDate === undefined ? END : options.endDate,
  })
  const record = await addVerified(org, user, type, expiry)
  return { verdict: await readiness(org.admin, assignmentId, options.asOf ?? AS_OF), record, user, assignmentId }
}

describe('readiness: document dates', () => {
  // [expiry, blocker or warning code, or none]: around as_of, sign-off, sign-off + margin, and the window's end.
  const passport: [string | null, string | null][] = [
    [addDays(AS_OF, -1), 'document_expired'],
    [AS_OF, 'document_expires_during_assignment'],
    [addDays(AS_OF, 1), 'document_expires_during_assignment'],
    [addDays(END, -1), 'document_expires_during_assignment'],
    [END, 'document_expires_during_assignment'],
    [addDays(END, 9), 'document_expires_during_assignment'],
    [addDays(END, 10), 'document_expiring_soon'],
    [addDays(END, 20), 'document_expiring_soon'],
    [addDays(END, 21), null],
    [null, null],
  ]
  it.each(passport)('a passport expiring %s gives %s (margin 10, window 20)', async (expiry, code) => {
    const { verdict, record } = await verdictFor('passport', expiry)
    const issues = [...verdict.blockers, ...verdict.warnings]
    expect(issues.map((issue: { code: string }) => issue.code)).toEqual(code ? [code] : [])
    expect(verdict.ready).toBe(code === null || code === 'document_expiring_soon')
    if (code) expect(issues[0]).toMatchObject({ requirement: 'passport', targetType: 'identity_document', targetId: record.id })
  })

  it('uses no margin and the default window for a type without settings', async () => {
    await setRequirements(org, [{ role: 'Oiler', documentTypes: ['seaman_book'] }])
    const codes = async (expiry: string) => {
      const { user, assignmentId } = await crewOnAssignment(org, { role: 'Oiler', endDate: END })
      await addVerified(org, user, 'seaman_book', expiry)
      return codesOf(await readiness(org.admin, assignmentId, AS_OF))
    }
    expect(await codes(addDays(END, -1))).toEqual({ blockers: ['document_expires_during_assignment'], warnings: [] })
    expect(await codes(END)).toEqual({ blockers: [], warnings: ['document_expiring_soon'] })
    expect(await codes(addDays(END, 30))).toEqual({ blockers: [], warnings: ['document_expiring_soon'] })
    expect(await codes(addDays(END, 31))).toEqual({ blockers: [], warnings: [] })
    await setRequirements(org, [{ role: '*', documentTypes: ['passport'] }])
  })

  it('judges an open-ended assignment through as_of + openEndedHorizonDays, moving with as_of', async () => {
    const through = addDays(AS_OF, HORIZON)
    const { verdict, assignmentId } = await verdictFor('passport', addDays(through, 9), { endDate: null })
    expect(verdict.through).toBe(through)
    expect(codesOf(verdict)).toEqual({ blockers: ['document_expires_during_assignment'], warnings: [] })
    const earlier = await readiness(org.admin, assignmentId, addDays(AS_OF, -1))
    expect([earlier.through, codesOf(earlier)]).toEqual([addDays(through, -1), { blockers: [], warnings: ['document_expiring_soon'] }])
    const soon = await verdictFor('passport', addDays(through, 10), { endDate: null })
    expect(codesOf(soon.verdict)).toEqual({ blockers: [], warnings: ['document_expiring_soon'] })
  })

  it('judges on any as_of, past or future: through stays the endDate', async () => {
    const { assignmentId } = await verdictFor('passport', '2030-03-01')
    const past = await readiness(org.admin, assignmentId, '2029-01-01')
    expect([past.asOf, past.through, codesOf(past)]).toEqual([
      '2029-01-01',
      END,
      { blockers: ['document_expires_during_assignment'], warnings: [] },
    ])
    const future = await readiness(org.admin, assignmentId, '2030-03-02')
    expect([future.through, codesOf(future)]).toEqual([END, { blockers: ['document_expired'], warnings: [] }])
    const onExpiry = await readiness(org.admin, assignmentId, '2030-03-01')
    expect(codesOf(onExpiry)).toEqual({ blockers: ['document_expires_during_assignment'], warnings: [] })
  })

  it('adds document_unverified to whatever the dates gave while the verification is pending', async () => {
    const { user, assignmentId } = await crewOnAssignment(org, { endDate: END })
    const record = await addRecord(org, user, 'passport', addDays(AS_OF, -1))
    const verdict = await readiness(org.admin, assignmentId, AS_OF)
    expect(codesOf(verdict)).toEqual({ blockers: ['document_expired'], warnings: ['document_unverified'] })
    expect(verdict.warnings[0]).toEqual({
      code: 'document_unverified',
      requirement: 'passport',
      targetType: 'identity_document',
      targetId: record.id,
      message: 'Passport is waiting for verification by the office.',
    })
    await review(org, record, 'verify')
    expect(codesOf(await readiness(org.admin, assignmentId, AS_OF))).toEqual({ blockers: ['document_expired'], warnings: [] })
  })
})

describe('readiness: which document is judged', () => {
  it('blocks on a missing type with the requirement as target', async () => {
    const { assignmentId, user } = await crewOnAssignment(org, { endDate: END })
    const verdict = await readiness(org.admin, assignmentId, AS_OF)
    expect(verdict.blockers).toEqual([
      {
        code: 'document_missing',
        requirement: 'passport',
        targetType: 'requirement',
        targetId: null,
        message: 'Passport is required for this role and none is on record.',
      },
    ])
    await addVerified(org, user, 'seaman_book', '2040-01-01')
    expect(codesOf(await readiness(org.admin, assignmentId, AS_OF)).blockers).toEqual(['document_missing'])
  })

  it('blocks when every one is rejected, naming the most recently created', async () => {
    const { user, assignmentId } = await crewOnAssignment(org, { endDate: END })
    const older = await addRecord(org, user, 'passport', '2040-01-01')
    const newer = await addRecord(org, user, 'passport', '2035-01-01')
    await setCreatedAt(t.database.db, older, '2029-01-01T00:00:00.000Z')
    await setCreatedAt(t.database.db, newer, '2029-06-01T00:00:00.000Z')
    for (const record of [older, newer]) await review(org, record, 'reject')
    const verdict = await readiness(org.admin, assignmentId, AS_OF)
    expect(verdict.blockers).toEqual([
      {
        code: 'document_rejected',
        requirement: 'passport',
        targetType: 'identity_document',
        targetId: newer.id,
        message: 'Passport is required for this role and every one on record was rejected.',
      },
    ])
    expect(verdict.warnings).toEqual([])
    await addVerified(org, user, 'passport', '2031-01-01')
    const after = await readiness(org.admin, assignmentId, AS_OF)
    expect([after.ready, after.blockers, after.warnings]).toEqual([true, [], []])
  })

  it('takes the latest expiry among those not rejected, no expiry date counting as latest', async () => {
    const { user, assignmentId } = await crewOnAssignment(org, { endDate: END })
    const rejectedLater = await addRecord(org, user, 'passport', '2045-01-01')
    await review(org, rejectedLater, 'reject')
    const expired = await addVerified(org, user, 'passport', '2029-01-01')
    expect((await readiness(org.admin, assignmentId, AS_OF)).blockers).toMatchObject([{ code: 'document_expired', targetId: expired.id }])
    const during = await addVerified(org, user, 'passport', '2030-02-01')
    expect((await readiness(org.admin, assignmentId, AS_OF)).blockers).toMatchObject([
      { code: 'document_expires_during_assignment', targetId: during.id },
    ])
    const noExpiry = await addRecord(org, user, 'passport', null)
    const verdict = await readiness(org.admin, assignmentId, AS_OF)
    expect([verdict.blockers, verdict.warnings]).toMatchObject([[], [{ code: 'document_unverified', targetId: noExpiry.id }]])
  })

  it('breaks a tie on expiry date by taking the verified one, then the newest', async () => {
    const { user, assignmentId } = await crewOnAssignment(org, { endDate: END })
    const verified = await addVerified(org, user, 'passport', '2029-12-01')
    const pendingNewer = await addRecord(org, user, 'passport', '2029-12-01')
    await setCreatedAt(t.database.db, verified, '2029-01-01T00:00:00.000Z')
    await setCreatedAt(t.database.db, pendingNewer, '2029-02-01T00:00:00.000Z')
    const first = await readiness(org.admin, assignmentId, AS_OF)
    expect([first.blockers, first.warnings]).toMatchObject([[{ code: 'document_expired', targetId: verified.id }], []])
    await review(org, pendingNewer, 'verify')
    expect((await readiness(org.admin, assignmentId, AS_OF)).blockers).toMatchObject([{ targetId: pendingNewer.id }])
    await setCreatedAt(t.database.db, verified, '2029-03-01T00:00:00.000Z')
    expect((await readiness(org.admin, assignmentId, AS_OF)).blockers).toMatchObject([{ targetId: verified.id }])
  })
})

describe('readiness: courses', () => {
  it('makes a registration not passed overdue once dueDate is before as_of, and ignores passed ones', async () => {
    const due = '2030-01-10'
    const { assignmentId } = await crewOnAssignment(org, { startDate: '2030-01-01', dueDate: due, endDate: END })
    await setRequirements(org, [])
    const failed = await addRegistration(t.database.db, org.id, assignmentId, 'failed', 'Fire Fighting')
    await addRegistration(t.database.db, org.id, assignmentId, 'passed')
    const onDue = await readiness(org.admin, assignmentId, due)
    expect([onDue.ready, onDue.blockers, onDue.warnings]).toEqual([
      true,
      [],
      [
        {
          code: 'course_not_passed',
          requirement: failed.courseId,
          targetType: 'registration',
          targetId: failed.id,
          message: 'Course "Fire Fighting" is not passed yet (due on 2030-01-10).',
        },
      ],
    ])
    const after = await readiness(org.admin, assignmentId, addDays(due, 1))
    expect([after.ready, after.blockers, after.warnings]).toEqual([
      false,
      [
        {
          code: 'course_overdue',
          requirement: failed.courseId,
          targetType: 'registration',
          targetId: failed.id,
          message: 'Course "Fire Fighting" was due on 2030-01-10 and is not passed.',
        },
      ],
      [],
    ])
    const undated = await crewOnAssignment(org)
    await addRegistration(t.database.db, org.id, undated.assignmentId, 'not_started')
    expect(codesOf(await readiness(org.admin, undated.assignmentId, '2099-01-01'))).toEqual({
      blockers: [],
      warnings: ['course_not_passed'],
    })
    await setRequirements(org, [{ role: '*', documentTypes: ['passport'] }])
  })
})

describe('readiness: roles and order', () => {
  it('requires the union of the role matched trimmed and case-insensitively and "*", in the contract order', async () => {
    await setRequirements(org, [
      { role: '*', documentTypes: ['passport'], certificateTypes: ['medical'] },
      { role: 'Chief Engineer', documentTypes: ['us_visa', 'passport'], certificateTypes: ['stcw_basic_safety'] },
    ])
    const { user, assignmentId } = await crewOnAssignment(org, { role: '  chief ENGINEER ', dueDate: '2030-01-01', endDate: END })
    const medical = await addRecord(org, user, 'medical', '2029-12-31')
    const stcw = await addVerified(org, user, 'stcw_basic_safety', addDays(END, 25))
    const courses = [
      await addRegistration(t.database.db, org.id, assignmentId, 'failed'),
      await addRegistration(t.database.db, org.id, assignmentId, 'in_progress'),
    ].sort((a, b) => (a.courseId < b.courseId ? -1 : 1))
    const verdict = await readiness(org.admin, assignmentId, AS_OF)
    const pairs = (issues: { code: string; requirement: string; targetId: string | null }[]) =>
      issues.map((i) => [i.code, i.requirement, i.targetId])
    expect(pairs(verdict.blockers)).toEqual([
      ['document_missing', 'passport', null],
      ['document_missing', 'us_visa', null],
      ['document_expired', 'medical', medical.id],
      ['course_overdue', courses[0].courseId, courses[0].id],
      ['course_overdue', courses[1].courseId, courses[1].id],
    ])
    expect(pairs(verdict.warnings)).toEqual([
      ['document_expiring_soon', 'stcw_basic_safety', stcw.id],
      ['document_unverified', 'medical', medical.id],
    ])
    expect(verdict).toMatchObject({ assignmentId, userId: user.id, role: '  chief ENGINEER ', asOf: AS_OF, through: END, ready: false })
    const cook = await crewOnAssignment(org, { role: 'Cook', endDate: END })
    const onlyStar = await readiness(org.admin, cook.assignmentId, AS_OF)
    expect(pairs(onlyStar.blockers)).toEqual([
      ['document_missing', 'medical', null],
      ['document_missing', 'passport', null],
    ])
    await setRequirements(org, [{ role: '*', documentTypes: ['passport'] }])
  })

  it('is ready with no requirements and no registrations', async () => {
    await setRequirements(org, [])
    const { assignmentId, user } = await crewOnAssignment(org, { endDate: END })
    const verdict = await readiness(org.admin, assignmentId, AS_OF)
    expect(verdict).toEqual({
      assignmentId,
      userId: user.id,
      shipId: expect.any(String),
      role: 'Bosun',
      asOf: AS_OF,
      through: END,
      ready: true,
      blockers: [],
      warnings: [],
    })
    await setRequirements(org, [{ role: '*', documentTypes: ['passport'] }])
  })
})
