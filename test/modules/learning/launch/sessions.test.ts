import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { expiredSessions } from '../../../../src/modules/learning/launch/sessions.queries.js'
import { abandonExpired } from '../../../../src/modules/learning/launch/sessions.service.js'
import { STANDARDS } from '../../../../src/modules/learning/standards/index.js'
import { useTestApp } from '../../../app.js'
import { createOrg, useOrg } from '../../../factories.js'
import { fetchPath, launchAu } from '../../../fixtures/cmi5-session.js'
import { packagedCourse } from '../../../fixtures/launch.js'
import { courseStats, enroll } from '../../../fixtures/registrations.js'

// Launch, sessions, abandon, waive and what they do to the registration (DECISIONS §13.4–13.5).
const t = useTestApp()
const org = useOrg(t)

const verbsOf = async (registrationId: string) =>
  (
    await t.database.db
      .selectFrom('xapi_statements')
      .select('verb_id')
      .where('organization_id', '=', org.id)
      .where('registration', '=', registrationId)
      .orderBy('seq')
      .execute()
  ).map((row) => row.verb_id.split('/').at(-1))

const eventsOf = async (targetId: string) =>
  (await t.database.db.selectFrom('events').select('type').where('target_id', '=', targetId).orderBy('id').execute()).map((e) => e.type)

async function registrationOn(aus: Parameters<typeof packagedCourse>[2], options: Parameters<typeof packagedCourse>[3] = {}) {
  const { courseId } = await packagedCourse(t.database.db, org.id, aus, options)
  return enroll(t.database.db, org.id, org.crew.id, { courseId })
}

describe('launching', () => {
  it('answers the AU URL with cmi5 parameters, writes LMS.LaunchData and launched, and moves the registration in progress', async () => {
    const { registrationId } = await registrationOn([{ url: 'lesson.html?chapter=2', moveOn: 'Completed' }])
    const au = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    const url = new URL(au.url)
    expect(url.origin).toBe(t.config.contentOrigin)
    expect(url.searchParams.get('chapter')).toBe('2')
    expect(url.searchParams.get('endpoint')).toBe(`${t.config.publicUrl}/api/v1/learn/xapi/`)
    expect(JSON.parse(url.searchParams.get('actor')!)).toEqual({
      objectType: 'Agent',
      account: { homePage: t.config.publicUrl, name: org.crew.id },
      name: expect.any(String),
    })
    expect(url.searchParams.get('registration')).toBe(registrationId)
    expect(url.searchParams.get('activityId')).not.toContain('example.com')
    expect(await verbsOf(registrationId)).toEqual(['launched'])
    const registration = await org.crew.api.get(`/api/v1/learn/registrations/${registrationId}`)
    expect(registration.body).toMatchObject({ status: 'in_progress', attempt_count: 0 })
  })

  it('keeps the activityId of an AU across launches of the registration', async () => {
    const { registrationId } = await registrationOn([{}])
    const first = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    const second = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    expect(second.params.get('activityId')).toBe(first.params.get('activityId'))
    expect(second.sessionId).not.toBe(first.sessionId)
  })

  it('answers the fetch URL once; later calls get cmi5 error bodies with HTTP 200', async () => {
    const { registrationId } = await registrationOn([{}])
    const launched = await org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/launch`, {})
    const path = fetchPath(launched.body.url, t.config.publicUrl)
    const first = await t.app.inject({ method: 'POST', url: path, headers: { origin: 'https://content.example' } })
    expect(first.statusCode).toBe(200)
    expect(first.headers['access-control-allow-origin']).toBe('https://content.example')
    expect(Object.keys(JSON.parse(first.body))).toEqual(['auth-token'])
    const again = await t.app.inject({ method: 'POST', url: path })
    expect(again.statusCode).toBe(200)
    expect(JSON.parse(again.body)).toEqual({ 'error-code': '1', 'error-text': expect.any(String) })
    const forged = await t.app.inject({ method: 'POST', url: `${path.slice(0, -4)}AAAA` })
    expect(JSON.parse(forged.body)).toMatchObject({ 'error-code': '2' })
  })

  it('refuses a course without a package (409), an AU index it does not have (422), and crew launching another person’s registration (404)', async () => {
    const pointer = await enroll(t.database.db, org.id, org.crew.id)
    expect((await org.crew.api.post(`/api/v1/learn/registrations/${pointer.registrationId}/launch`, {})).status).toBe(409)
    const { registrationId } = await registrationOn([{}])
    const wrongIndex = await org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/launch`, { auIndex: 3 })
    expect(wrongIndex.status).toBe(422)
    expect(wrongIndex.body.detail[0].loc).toEqual(['body', 'auIndex'])
    const others = await enroll(t.database.db, org.id, org.admin.id, { courseId: (await packagedCourse(t.database.db, org.id, [{}])).courseId })
    expect((await org.crew.api.post(`/api/v1/learn/registrations/${others.registrationId}/launch`, {})).status).toBe(404)
    expect((await org.admin.api.post(`/api/v1/learn/registrations/${registrationId}/launch`, {})).status).toBe(201)
  })

  it("keeps another organization's registrations and sessions out of reach", async () => {
    const other = await createOrg(t.app, t.database.db)
    const { registrationId } = await registrationOn([{}])
    const au = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    expect((await other.admin.api.post(`/api/v1/learn/registrations/${registrationId}/launch`, {})).status).toBe(404)
    expect((await other.admin.api.get(`/api/v1/learn/registrations/${registrationId}/sessions`)).status).toBe(404)
    expect((await other.admin.api.post(`/api/v1/learn/sessions/${au.sessionId}/abandon`)).status).toBe(404)
    expect((await other.admin.api.post(`/api/v1/learn/registrations/${registrationId}/waive`, { auIndex: 0, reason: 'Administrative' })).status).toBe(404)
  })
})

describe('sessions as attempts', () => {
  it('abandons the open session when the next launch starts: abandoned with its duration, one attempt, an event', async () => {
    const { registrationId, courseId } = await registrationOn([{ moveOn: 'Completed' }])
    const first = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    await first.lrs.post('/statements', first.statement('initialized'))
    await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    expect(await verbsOf(registrationId)).toEqual(['launched', 'initialized', 'abandoned', 'launched'])
    expect((await first.lrs.post('/statements', first.statement('experienced', { allowed: true }))).status).toBe(403)
    const sessions = await org.crew.api.get(`/api/v1/learn/registrations/${registrationId}/sessions`)
    expect(sessions.body.items.map((s: { endedBy: string | null }) => s.endedBy)).toEqual([null, 'abandoned'])
    const registration = await org.crew.api.get(`/api/v1/learn/registrations/${registrationId}`)
    expect(registration.body).toMatchObject({ status: 'in_progress', attempt_count: 1 })
    expect(await courseStats(t.database.db, courseId)).toMatchObject({ attempted: 1, attempts_total: 1, passed: 0 })
    expect(await eventsOf(first.sessionId)).toEqual(['learning_session.abandoned'])
  })

  it('counts a registration in course difficulty’s passRate once it has passed and ended an attempt, whichever came first', async () => {
    const { registrationId, courseId } = await registrationOn([{ moveOn: 'Completed' }])
    const au = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    await au.lrs.post('/statements', [au.statement('initialized'), au.statement('completed')])
    expect((await org.crew.api.get(`/api/v1/learn/registrations/${registrationId}`)).body).toMatchObject({ status: 'passed', attempt_count: 0 })
    expect(await courseStats(t.database.db, courseId)).toMatchObject({ attempted: 0, passed: 0 })
    // Two more learners pass mid-session, one fails a whole attempt: the share stays within 0..1.
    for (let i = 0; i < 2; i++) {
      const other = await enroll(t.database.db, org.id, org.crew.id, { courseId })
      const open = await launchAu(t.app, t.config.publicUrl, org.crew.api, other.registrationId)
      await open.lrs.post('/statements', [open.statement('initialized'), open.statement('completed')])
    }
    const failing = await enroll(t.database.db, org.id, org.crew.id, { courseId })
    await launchAu(t.app, t.config.publicUrl, org.crew.api, failing.registrationId)
    await launchAu(t.app, t.config.publicUrl, org.crew.api, failing.registrationId) // abandons the first: an attempt
    const difficulty = async () =>
      (await org.admin.api.get('/api/v1/learn/admin/analytics/course-difficulty')).body.data.find((c: { courseId: string }) => c.courseId === courseId)
    expect(await difficulty()).toMatchObject({ passRate: 0, avgAttempts: 1, enrollments: 4 })
    await au.lrs.post('/statements', au.statement('terminated'))
    expect(await courseStats(t.database.db, courseId)).toMatchObject({ attempted: 2, attempts_total: 2, passed: 1 })
    expect(await difficulty()).toMatchObject({ passRate: 0.5, avgAttempts: 1 })
  })

  it('does not count a registration passed by a waive alone in passRate', async () => {
    const { registrationId, courseId } = await registrationOn([{ moveOn: 'Completed' }])
    expect((await org.admin.api.post(`/api/v1/learn/registrations/${registrationId}/waive`, { auIndex: 0, reason: 'Tested Out' })).status).toBe(200)
    expect(await courseStats(t.database.db, courseId)).toMatchObject({ attempted: 0, passed: 0 })
  })

  it('lets an admin abandon an open session once (409 after), and not crew', async () => {
    const { registrationId } = await registrationOn([{}])
    const au = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    expect((await org.crew.api.post(`/api/v1/learn/sessions/${au.sessionId}/abandon`)).status).toBe(403)
    const abandoned = await org.admin.api.post(`/api/v1/learn/sessions/${au.sessionId}/abandon`)
    expect(abandoned.status).toBe(200)
    expect(abandoned.body).toMatchObject({ id: au.sessionId, endedBy: 'abandoned', durationSeconds: expect.any(Number) })
    expect((await org.admin.api.post(`/api/v1/learn/sessions/${au.sessionId}/abandon`)).status).toBe(409)
  })

  it('abandons sessions past their expiry in the sweep, once', async () => {
    const { registrationId } = await registrationOn([{}])
    const au = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    await t.database.db.updateTable('learning_sessions').set({ expires_at: sql<Date>`now() - interval '1 minute'` }).where('id', '=', au.sessionId).execute()
    const expired = (await expiredSessions(t.database.db, 1000)).filter((s) => s.id === au.sessionId)
    expect(expired).toHaveLength(1)
    const deps = { db: t.database.db, config: t.config, standards: STANDARDS }
    await abandonExpired(deps, expired)
    await abandonExpired(deps, expired)
    expect((await verbsOf(registrationId)).filter((verb) => verb === 'abandoned')).toHaveLength(1)
    expect((await org.crew.api.get(`/api/v1/learn/registrations/${registrationId}`)).body.attempt_count).toBe(1)
  })

  it('fails the registration on a failed session, with its event; a later pass wins', async () => {
    const { registrationId } = await registrationOn([{ moveOn: 'Passed', masteryScore: 0.8 }])
    const first = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    await first.lrs.post('/statements', [
      first.statement('initialized'),
      first.statement('failed', { score: 0.4, masteryScore: 0.8 }),
      first.statement('terminated', { duration: 'PT5M' }),
    ])
    expect((await org.crew.api.get(`/api/v1/learn/registrations/${registrationId}`)).body).toMatchObject({
      status: 'failed',
      attempt_count: 1,
      score_percent: 40,
      time_spent_seconds: 300,
    })
    const second = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    await second.lrs.post('/statements', [second.statement('initialized'), second.statement('passed', { score: 0.85, masteryScore: 0.8 })])
    await second.lrs.post('/statements', second.statement('terminated', { duration: 'PT2M' }))
    expect((await org.crew.api.get(`/api/v1/learn/registrations/${registrationId}`)).body).toMatchObject({
      status: 'passed',
      attempt_count: 2,
      score_percent: 85,
      time_spent_seconds: 420,
    })
    expect(await eventsOf(registrationId)).toEqual(['registration.failed', 'registration.passed'])
  })
})

describe('moveOn, blocks and waive', () => {
  const blocks = [{ id: 'https://example.com/courses/fire-safety/block/1', auIndexes: [0, 1] }]

  it('satisfies NotApplicable AUs at registration and the block and course once the rest meet their moveOn', async () => {
    const { registrationId } = await registrationOn([{ moveOn: 'NotApplicable' }, { moveOn: 'Completed' }, { moveOn: 'CompletedAndPassed' }], { blocks })
    const au1 = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId, { auIndex: 1 })
    await au1.lrs.post('/statements', [au1.statement('initialized'), au1.statement('completed'), au1.statement('terminated')])
    expect((await verbsOf(registrationId)).filter((verb) => verb === 'satisfied')).toHaveLength(1) // the block
    const au2 = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId, { auIndex: 2 })
    await au2.lrs.post('/statements', [au2.statement('initialized'), au2.statement('completed')])
    expect((await org.crew.api.get(`/api/v1/learn/registrations/${registrationId}`)).body.status).toBe('in_progress')
    await au2.lrs.post('/statements', au2.statement('passed'))
    expect((await verbsOf(registrationId)).filter((verb) => verb === 'satisfied')).toHaveLength(2) // and the course
    expect((await org.crew.api.get(`/api/v1/learn/registrations/${registrationId}`)).body.status).toBe('passed')
    // Each satisfied is grouped under the publisher id of what it is about (cmi5 §9.6.2.3).
    const satisfied = await t.database.db
      .selectFrom('xapi_statements')
      .select('statement')
      .where('organization_id', '=', org.id)
      .where('registration', '=', registrationId)
      .where('verb_id', '=', 'https://w3id.org/xapi/adl/verbs/satisfied')
      .orderBy('seq')
      .execute()
    expect(satisfied.map(({ statement }) => (statement as { context: { contextActivities: { grouping: unknown } } }).context.contextActivities.grouping)).toEqual([
      [{ id: blocks[0].id }],
      [{ id: 'https://example.com/courses/fire-safety' }],
    ])
  })

  it('satisfies a course of NotApplicable AUs on its first launch', async () => {
    const { registrationId } = await registrationOn([{ moveOn: 'NotApplicable' }])
    await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    expect((await org.crew.api.get(`/api/v1/learn/registrations/${registrationId}`)).body.status).toBe('passed')
  })

  it('waives an AU as an admin: waived, then satisfied, and the registration passes; once per AU; not for crew', async () => {
    const { registrationId } = await registrationOn([{ moveOn: 'Passed', masteryScore: 0.8 }])
    const body = { auIndex: 0, reason: 'Tested Out' }
    expect((await org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/waive`, body)).status).toBe(403)
    expect((await org.admin.api.post(`/api/v1/learn/registrations/${registrationId}/waive`, { auIndex: 0, reason: 'Because' })).status).toBe(422)
    const waived = await org.admin.api.post(`/api/v1/learn/registrations/${registrationId}/waive`, body)
    expect(waived.status).toBe(200)
    expect(waived.body).toMatchObject({ id: registrationId, status: 'passed' })
    expect(await verbsOf(registrationId)).toEqual(['waived', 'satisfied'])
    expect(await eventsOf(registrationId)).toEqual(['registration.passed', 'registration.waived'])
    expect((await org.admin.api.post(`/api/v1/learn/registrations/${registrationId}/waive`, body)).status).toBe(409)
  })

  it('keeps a registration on the package version it launched when the course gets a new one', async () => {
    const { registrationId, courseId } = await registrationOn([{ url: 'old.html' }])
    await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    await packagedCourse(t.database.db, org.id, [{ url: 'new.html' }], { courseId })
    const relaunched = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    expect(new URL(relaunched.url).pathname.endsWith('/old.html')).toBe(true)
    const newcomer = await enroll(t.database.db, org.id, org.crew.id, { courseId })
    const fresh = await launchAu(t.app, t.config.publicUrl, org.crew.api, newcomer.registrationId)
    expect(new URL(fresh.url).pathname.endsWith('/new.html')).toBe(true)
  })

  it('refuses self-reported attempts on a packaged course', async () => {
    const { registrationId } = await registrationOn([{}])
    const attempt = await org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/attempts`, { attemptId: crypto.randomUUID(), passed: true })
    expect(attempt.status).toBe(409)
    expect(attempt.body).toEqual({ detail: 'This course records its results from its sessions' })
  })
})
