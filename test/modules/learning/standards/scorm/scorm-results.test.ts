import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { expiredSessions } from '../../../../../src/modules/learning/launch/sessions.queries.js'
import { abandonExpired } from '../../../../../src/modules/learning/launch/sessions.service.js'
import { STANDARDS } from '../../../../../src/modules/learning/standards/index.js'
import { useTestApp } from '../../../../app.js'
import { createOrg, type TestOrg } from '../../../../factories.js'
import { packagedCourse } from '../../../../fixtures/launch.js'
import { codesOf, crewOnAssignment, readiness } from '../../../../fixtures/readiness.js'
import { insertRegistration } from '../../../../fixtures/registrations.js'
import { type ScormSession, scormPlayer } from '../../../../fixtures/scorm.js'

// A SCO's result is read from the state its session ends in (DECISIONS §13.6): the final commit, or the
// last commit of an abandoned or expired session; never an intermediate commit or an autocommit. Each
// course here issues a certificate on pass, and its learner is on an assignment whose readiness the
// course's pass would clear.

const t = useTestApp()
const player = scormPlayer(t)

type Standard = 'scorm12' | 'scorm2004'

async function scormCourse(org: TestOrg, standard: Standard, masteryScore: number | null = null) {
  const certificate = { certificateType: 'stcw_basic_safety', validityMonths: 60 }
  const body = { organization_id: org.id, s3_path: 'courses/x', launch_file: 'index.html', title: 'Lookout', certificate }
  const created = await org.admin.api.post('/api/v1/learn/courses', body)
  expect(created.status).toBe(201)
  await packagedCourse(t.database.db, org.id, [{ masteryScore, url: 'sco/index.html' }], { standard, courseId: created.body.id })
  const { user, assignmentId } = await crewOnAssignment(org)
  const registrationId = await insertRegistration(t.database.db, org.id, assignmentId, created.body.id)
  return { org, user, assignmentId, registrationId }
}
type Learner = Awaited<ReturnType<typeof scormCourse>>

/** What the course's result did: the registration, the certificates the pass issues, and whether readiness still waits for the course. */
async function outcome({ org, user, assignmentId, registrationId }: Learner) {
  const registration = (await user.api.get(`/api/v1/learn/registrations/${registrationId}`)).body
  const certificates = (await org.admin.api.get(`/api/v1/crew/users/${user.id}/certificates`)).body as { certificateType: string }[]
  const verdict = codesOf(await readiness(user, assignmentId))
  return {
    status: registration.status,
    attempts: registration.attempt_count,
    score: registration.score_percent,
    certificates: certificates.map((c) => c.certificateType),
    courseInReadiness: [...verdict.blockers, ...verdict.warnings].some((code) => code.startsWith('course_')),
  }
}

const PASSED = { status: 'passed', certificates: ['stcw_basic_safety'], courseInReadiness: false }
const FAILED = { status: 'failed', certificates: [], courseInReadiness: true }
const IN_PROGRESS = { status: 'in_progress', certificates: [], courseInReadiness: true }

/** Launch, intermediate commits (the SCO's and the autocommit's, the same request), then the final commit. */
async function play(learner: Learner, commits: unknown[], final: unknown): Promise<ScormSession> {
  const s = await player.launch(learner.user, learner.registrationId)
  for (const cmi of commits) {
    expect(await player.commit(s.session, s.auth, { cmi })).toEqual({ result: 'true' })
    expect(await outcome(learner)).toMatchObject({ ...IN_PROGRESS, attempts: 0 })
  }
  expect(await player.finish(s, final)).toEqual({ result: 'true' })
  return s
}

const v12 = (status: string, raw?: number) => ({
  core: { lesson_status: status, ...(raw !== undefined && { score: { raw: String(raw), max: '100' } }) },
})
const v2004 = (completion: string, success: string, scaled?: number) => ({
  completion_status: completion,
  success_status: success,
  ...(scaled !== undefined && { score: { scaled: String(scaled) } }),
})

describe('SCORM 1.2: the SCO as its session ends', () => {
  it('completed by an autocommit, then failed at the end: a failed attempt, no certificate, readiness still waits', async () => {
    const org = await createOrg(t.app, t.database.db)
    const learner = await scormCourse(org, 'scorm12')
    // Golf Explained: `completed` on reaching the test page, committed by the 30 s autocommit, then every answer wrong.
    await play(learner, [v12('incomplete'), { core: { lesson_status: 'completed', lesson_location: '15' } }], v12('failed', 0))
    expect(await outcome(learner)).toEqual({ ...FAILED, attempts: 1, score: 0 })
    expect(await player.verbNames(org, learner.registrationId)).toEqual(['initialized', 'failed', 'terminated'])
    const aus = await t.database.db
      .selectFrom('registration_aus')
      .selectAll()
      .where('registration_id', '=', learner.registrationId)
      .execute()
    expect(aus).toEqual([expect.objectContaining({ completed: false, passed: false, failed: true, satisfied: false })])
  })

  it('passed by an intermediate commit, failed at the end: failed', async () => {
    const learner = await scormCourse(await createOrg(t.app, t.database.db), 'scorm12')
    await play(learner, [v12('passed', 90)], v12('failed', 40))
    expect(await outcome(learner)).toEqual({ ...FAILED, attempts: 1, score: 40 })
  })

  it.each([
    ['passed → passed', null, v12('passed', 90), { ...PASSED, score: 90 }],
    ['failed → failed', null, v12('failed', 40), { ...FAILED, score: 40 }],
    ['completed without a mastery score satisfies', null, v12('completed'), { ...PASSED, score: null }],
    ['completed with a mastery score and a raw score at it: passed', 0.8, v12('completed', 80), { ...PASSED, score: 80 }],
    ['completed with a mastery score and a raw score under it: failed', 0.8, v12('completed', 79), { ...FAILED, score: 79 }],
    ['completed with a mastery score and no raw score: not yet', 0.8, v12('completed'), { ...IN_PROGRESS, score: null }],
    ['incomplete: not yet', null, v12('incomplete'), { ...IN_PROGRESS, score: null }],
  ])('%s', async (_name, masteryScore, final, expected) => {
    const org = await createOrg(t.app, t.database.db)
    const learner = await scormCourse(org, 'scorm12', masteryScore)
    await play(learner, [v12('incomplete')], final)
    expect(await outcome(learner)).toEqual({ ...expected, attempts: 1 })
  })

  it('a later session that passes passes a failed registration; one that fails after a pass leaves it passed', async () => {
    const org = await createOrg(t.app, t.database.db)
    const learner = await scormCourse(org, 'scorm12')
    await play(learner, [], v12('failed', 40))
    await play(learner, [], v12('passed', 90))
    expect(await outcome(learner)).toEqual({ ...PASSED, attempts: 2, score: 90 })
    await play(learner, [], v12('failed', 10))
    expect(await outcome(learner)).toEqual({ ...PASSED, attempts: 3, score: 90 })
  })
})

describe('SCORM 2004: the SCO as its session ends', () => {
  it.each([
    ['completed and failed, no passing score: failed', null, v2004('completed', 'failed', 0.2), { ...FAILED, score: 20 }],
    ['completed, success unknown, no passing score: satisfied', null, v2004('completed', 'unknown'), { ...PASSED, score: null }],
    ['completed, success unknown, a passing score: not yet', 0.8, v2004('completed', 'unknown'), { ...IN_PROGRESS, score: null }],
    ['passed while incomplete: passed', null, v2004('incomplete', 'passed'), { ...PASSED, score: null }],
    ['the scaled score over the passing score decides over failed', 0.8, v2004('completed', 'failed', 0.85), { ...PASSED, score: 85 }],
    ['the scaled score under the passing score decides over passed', 0.8, v2004('completed', 'passed', 0.5), { ...FAILED, score: 50 }],
    [
      'a raw score does not decide',
      0.8,
      { ...v2004('completed', 'passed'), score: { raw: '1', min: '0', max: '10' } },
      { ...PASSED, score: 10 },
    ],
  ])('%s', async (_name, masteryScore, final, expected) => {
    const learner = await scormCourse(await createOrg(t.app, t.database.db), 'scorm2004', masteryScore)
    await play(learner, [v2004('incomplete', 'unknown')], final)
    expect(await outcome(learner)).toEqual({ ...expected, attempts: 1 })
  })

  it('completed and passed by an intermediate commit, failed at the end: failed, and only the end is in the LRS', async () => {
    const org = await createOrg(t.app, t.database.db)
    const learner = await scormCourse(org, 'scorm2004')
    await play(learner, [v2004('completed', 'passed', 0.9)], v2004('completed', 'failed', 0.3))
    expect(await outcome(learner)).toEqual({ ...FAILED, attempts: 1, score: 30 })
    const statements = await player.verbs(org, learner.registrationId)
    expect(statements.map((st) => [st.verb.id.split('/').at(-1), st.result])).toEqual([
      ['initialized', undefined],
      ['completed', { completion: true }],
      ['failed', { success: false, score: { scaled: 0.3 } }],
      ['terminated', { duration: expect.any(String) }],
    ])
  })
})

describe('an abandoned session is judged from its last commit', () => {
  it.each([
    ['scorm12', v12('passed', 90), { ...PASSED, score: 90 }, ['initialized', 'completed', 'passed']],
    ['scorm12', v12('failed', 30), { ...FAILED, score: 30 }, ['initialized', 'failed']],
    ['scorm2004', v2004('completed', 'failed'), { ...FAILED, score: null }, ['initialized', 'completed', 'failed']],
  ] as const)('%s, by the next launch: %j', async (standard, last, expected, verbs) => {
    const org = await createOrg(t.app, t.database.db)
    const learner = await scormCourse(org, standard)
    const s = await player.launch(learner.user, learner.registrationId)
    await player.commit(s.session, s.auth, { cmi: standard === 'scorm12' ? v12('incomplete') : v2004('incomplete', 'unknown') })
    await player.commit(s.session, s.auth, { cmi: last })
    expect(await outcome(learner)).toMatchObject(IN_PROGRESS)
    await player.launch(learner.user, learner.registrationId)
    expect(await outcome(learner)).toEqual({ ...expected, attempts: 1 })
    expect(await player.verbNames(org, learner.registrationId)).toEqual(verbs)
  })

  it('by an admin, and by the expiry sweep', async () => {
    const org = await createOrg(t.app, t.database.db)
    const byAdmin = await scormCourse(org, 'scorm12')
    const a = await player.launch(byAdmin.user, byAdmin.registrationId)
    await player.commit(a.session, a.auth, { cmi: v12('failed', 20) })
    expect((await org.admin.api.post(`/api/v1/learn/sessions/${a.session}/abandon`)).status).toBe(200)
    expect(await outcome(byAdmin)).toEqual({ ...FAILED, attempts: 1, score: 20 })

    const expiring = await scormCourse(org, 'scorm2004')
    const e = await player.launch(expiring.user, expiring.registrationId)
    await player.commit(e.session, e.auth, { cmi: v2004('completed', 'passed', 0.95) })
    await t.database.db
      .updateTable('learning_sessions')
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('id', '=', e.session)
      .execute()
    await abandonExpired(
      { db: t.database.db, config: t.config, standards: STANDARDS },
      (await expiredSessions(t.database.db, 1000)).filter((s) => s.id === e.session),
    )
    expect(await outcome(expiring)).toEqual({ ...PASSED, attempts: 1, score: 95 })
  })

  it('a session abandoned before any commit, or in Browse mode, counts towards nothing but the attempt', async () => {
    const org = await createOrg(t.app, t.database.db)
    const learner = await scormCourse(org, 'scorm12')
    await player.launch(learner.user, learner.registrationId)
    const browsed = await learner.user.api.post(`/api/v1/learn/registrations/${learner.registrationId}/launch`, { launchMode: 'Browse' })
    expect(browsed.status).toBe(201)
    const fragment = new URLSearchParams(new URL(browsed.body.url).hash.slice(1))
    const auth = `Basic ${Buffer.from(`session.${fragment.get('session')}:${fragment.get('secret')}`).toString('base64')}`
    await player.finish({ session: fragment.get('session')!, auth }, v12('passed', 100))
    expect(await outcome(learner)).toEqual({ ...IN_PROGRESS, attempts: 2, score: null })
  })
})
