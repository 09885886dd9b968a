import { v7 as uuidv7 } from 'uuid'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { courseStats, enroll } from '../../../fixtures/registrations.js'

const t = useTestApp()

const path = (id: string) => `/api/v1/learn/registrations/${id}/attempts`
const attempt = <T extends Record<string, unknown>>(fields: T) => ({ attemptId: uuidv7(), ...fields })

async function setup() {
  const org = await createOrg(t.app, t.database.db)
  const enrollment = await enroll(t.database.db, org.id, org.crew.id)
  const read = async () => (await org.admin.api.get(`/api/v1/learn/registrations/${enrollment.registrationId}`)).body
  const attemptRows = () =>
    t.database.db.selectFrom('attempts').selectAll().where('registration_id', '=', enrollment.registrationId).execute()
  return { org, ...enrollment, read, attemptRows, stats: () => courseStats(t.database.db, enrollment.courseId) }
}

describe('recording attempts', () => {
  it('keeps the best score, adds up time, and sets status and completed_at as attempts arrive', async () => {
    const s = await setup()
    const before = await s.read()
    const post = async (body: Record<string, unknown>) => {
      const res = await s.org.crew.api.post(path(s.registrationId), attempt(body))
      expect(res.status).toBe(201)
      expect(res.body).toEqual(await s.read())
      return res.body
    }

    const failed = await post({ passed: false, score_percent: 40, time_spent_seconds: 100 })
    expect(failed).toEqual({
      ...before,
      status: 'failed',
      score_percent: 40,
      time_spent_seconds: 100,
      attempt_count: 1,
      completed_at: null,
      updated_at: expect.any(String),
    })
    expect(await s.stats()).toEqual({ enrollments: 1, attempted: 1, attempts_total: 1, passed: 0 })

    const finishedAt = '2026-03-01T10:00:00.000Z'
    const passed = await post({ passed: true, score_percent: 70, time_spent_seconds: 50, finished_at: finishedAt })
    expect(passed).toEqual({
      ...failed,
      updated_at: expect.any(String),
      status: 'passed',
      score_percent: 70,
      time_spent_seconds: 150,
      attempt_count: 2,
      completed_at: finishedAt,
    })
    expect(await s.stats()).toEqual({ enrollments: 1, attempted: 1, attempts_total: 2, passed: 1 })

    const failedAfterPass = await post({ passed: false, score_percent: 90, time_spent_seconds: 10 })
    expect(failedAfterPass).toEqual({
      ...passed,
      updated_at: expect.any(String),
      status: 'passed',
      score_percent: 90,
      time_spent_seconds: 160,
      attempt_count: 3,
      completed_at: finishedAt,
    })

    const passedAgain = await post({ passed: true, score_percent: 50, finished_at: '2026-04-01T00:00:00Z', time_spent_seconds: null })
    expect(passedAgain).toEqual({
      ...passed,
      updated_at: expect.any(String),
      status: 'passed',
      score_percent: 90,
      time_spent_seconds: 160,
      attempt_count: 4,
      completed_at: finishedAt,
    })
    expect(await s.stats()).toEqual({ enrollments: 1, attempted: 1, attempts_total: 4, passed: 1 })
    expect(await s.attemptRows()).toHaveLength(4)
  })

  it('stamps completed_at with the recording time when a first pass has no finished_at', async () => {
    const s = await setup()
    const start = Date.now()
    const before = await s.read()
    const res = await s.org.admin.api.post(path(s.registrationId), attempt({ passed: true }))
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      ...before,
      status: 'passed',
      attempt_count: 1,
      completed_at: expect.any(String),
      updated_at: expect.any(String),
    })
    const completed = Date.parse(res.body.completed_at)
    expect(completed).toBeGreaterThanOrEqual(start - 1000)
    expect(completed).toBeLessThanOrEqual(Date.now() + 1000)
  })

  it('creates the course counters when the course has none yet', async () => {
    const s = await setup()
    await enroll(t.database.db, s.org.id, s.org.officeEmployee.id, { courseId: s.courseId })
    await t.database.db.deleteFrom('course_stats').where('course_id', '=', s.courseId).execute()
    expect((await s.org.crew.api.post(path(s.registrationId), attempt({ passed: true }))).status).toBe(201)
    expect(await s.stats()).toEqual({ enrollments: 2, attempted: 1, attempts_total: 1, passed: 1 })
  })
})

describe('replays', () => {
  it('answers a replay with 200 and changes nothing', async () => {
    const s = await setup()
    const body = attempt({ passed: false, score_percent: 55, time_spent_seconds: 30, finished_at: '2026-05-01T12:00:00.000Z' })
    expect((await s.org.crew.api.post(path(s.registrationId), body)).status).toBe(201)
    const [registration, stats, rows] = [await s.read(), await s.stats(), await s.attemptRows()]

    // The same content, written differently (key order, another time zone), is the same attempt.
    const reordered = { ...Object.fromEntries(Object.entries(body).reverse()), extra: 1 }
    const replays = [body, { ...body, finished_at: '2026-05-01T14:00:00+02:00' }, reordered]
    for (const replay of replays) {
      const res = await s.org.crew.api.post(path(s.registrationId), replay)
      expect(res.status).toBe(200)
      expect(res.body).toEqual(registration)
    }
    expect(await s.read()).toEqual(registration)
    expect(await s.stats()).toEqual(stats)
    expect(await s.attemptRows()).toEqual(rows)
  })

  it('treats an omitted optional field and an explicit null as the same content', async () => {
    const s = await setup()
    const body = attempt({ passed: true })
    expect((await s.org.crew.api.post(path(s.registrationId), body)).status).toBe(201)
    const replay = await s.org.crew.api.post(path(s.registrationId), { ...body, score_percent: null, finished_at: null })
    expect(replay.status).toBe(200)
  })

  it('is a 409 when the same attemptId comes back with different content, and changes nothing', async () => {
    const s = await setup()
    const body = attempt({ passed: false, score_percent: 55, time_spent_seconds: 30, finished_at: '2026-05-01T12:00:00.000Z' })
    await s.org.crew.api.post(path(s.registrationId), body)
    const [registration, stats] = [await s.read(), await s.stats()]
    const changes = [
      { passed: true },
      { score_percent: 56 },
      { score_percent: null },
      { time_spent_seconds: 31 },
      { finished_at: '2026-05-01T12:00:00.001Z' },
    ]
    for (const change of changes) {
      const res = await s.org.crew.api.post(path(s.registrationId), { ...body, ...change })
      expect(res.status).toBe(409)
      expect(res.body).toEqual({ detail: expect.any(String) })
    }
    expect(await s.read()).toEqual(registration)
    expect(await s.stats()).toEqual(stats)
    expect(await s.attemptRows()).toHaveLength(1)
  })

  it('accepts the same attemptId on another registration as a different attempt', async () => {
    const s = await setup()
    const other = await enroll(t.database.db, s.org.id, s.org.crew.id)
    const body = attempt({ passed: true })
    expect((await s.org.crew.api.post(path(s.registrationId), body)).status).toBe(201)
    expect((await s.org.crew.api.post(path(other.registrationId), body)).status).toBe(201)
  })
})

describe('concurrency', () => {
  it('counts every one of concurrent attempts on one registration', async () => {
    const s = await setup()
    const bodies = Array.from({ length: 10 }, (_, i) =>
      attempt({ passed: i === 3 || i === 7, score_percent: i * 10, time_spent_seconds: i + 1 }),
    )
    const results = await Promise.all(bodies.map((body) => s.org.crew.api.post(path(s.registrationId), body)))
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201))
    expect(await s.read()).toMatchObject({ attempt_count: 10, time_spent_seconds: 55, score_percent: 90, status: 'passed' })
    expect(await s.stats()).toEqual({ enrollments: 1, attempted: 1, attempts_total: 10, passed: 1 })
  })

  it('counts concurrent replays of one attemptId once', async () => {
    const s = await setup()
    const body = attempt({ passed: true, score_percent: 80, time_spent_seconds: 60 })
    const results = await Promise.all(Array.from({ length: 10 }, () => s.org.crew.api.post(path(s.registrationId), body)))
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201])
    const registration = await s.read()
    expect(registration).toMatchObject({ attempt_count: 1, time_spent_seconds: 60, score_percent: 80, status: 'passed' })
    for (const result of results) expect(result.body).toEqual(registration)
    expect(await s.stats()).toEqual({ enrollments: 1, attempted: 1, attempts_total: 1, passed: 1 })
    expect(await s.attemptRows()).toHaveLength(1)
  })
})

describe('who may record attempts', () => {
  let s: Awaited<ReturnType<typeof setup>>
  let other: TestOrg
  beforeAll(async () => {
    s = await setup()
    other = await createOrg(t.app, t.database.db)
  })

  it('admins record anyone’s attempts; crew only their own', async () => {
    expect((await s.org.admin.api.post(path(s.registrationId), attempt({ passed: false }))).status).toBe(201)
    const colleague = await s.org.addUser('crew')
    expect((await colleague.api.post(path(s.registrationId), attempt({ passed: false }))).status).toBe(404)
    expect((await s.read()).attempt_count).toBe(1)
  })

  it('refuses office roles with 403, even on their own registrations', async () => {
    const own = await enroll(t.database.db, s.org.id, s.org.officeEmployee.id)
    for (const user of [s.org.officeAdmin, s.org.officeEmployee]) {
      const res = await user.api.post(path(own.registrationId), attempt({ passed: true }))
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ detail: expect.any(String) })
    }
  })

  it('is a 404 for another organization’s or a missing registration', async () => {
    expect((await other.admin.api.post(path(s.registrationId), attempt({ passed: true }))).status).toBe(404)
    const missing = await s.org.admin.api.post(path(uuidv7()), attempt({ passed: true }))
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ detail: 'Registration not found' })
  })

  it('needs the learn product', async () => {
    const crewOnly = await createOrg(t.app, t.database.db, { products: ['crew'] })
    const own = await enroll(t.database.db, crewOnly.id, crewOnly.crew.id)
    expect((await crewOnly.admin.api.post(path(own.registrationId), attempt({ passed: true }))).status).toBe(403)
  })
})
