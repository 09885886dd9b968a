import { sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, insertCourse, nextImo, type TestOrg } from '../../../factories.js'
import { enroll } from '../../../fixtures/registrations.js'
import { courseDifficultyQuery } from '../../../../src/modules/learning/analytics/analytics.queries.js'

const t = useTestApp()

const URL = '/api/v1/learn/admin/analytics/course-difficulty'

/** A course whose registrations see the given attempt outcomes (true = pass), recorded through the endpoint. */
async function course(org: TestOrg, title: string, registrations: boolean[][]) {
  const courseId = await insertCourse(t.database.db, org.id, title)
  for (const outcomes of registrations) {
    const { registrationId } = await enroll(t.database.db, org.id, org.crew.id, { courseId })
    for (const passed of outcomes) {
      const res = await org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/attempts`, { attemptId: uuidv7(), passed })
      expect(res.status).toBe(201)
    }
  }
  return courseId
}

describe('course difficulty', () => {
  let org: TestOrg
  let expected: { courseId: string; course: string; avgAttempts: number; passRate: number; enrollments: number }[]
  beforeAll(async () => {
    org = await createOrg(t.app, t.database.db)
    const F = false
    const T = true
    const a = await course(org, 'A', [
      [F, F, T],
      [F, F],
    ]) // one passed after 3 attempts, one failed twice
    const b = await course(org, 'B', [[T], [F, T], []])
    const c = await course(org, 'C untried', [[], []])
    const d = await course(org, 'D', [[F]])
    const e = await course(org, 'E', [[F], []])
    const f = await course(org, 'F', [[F]])
    const h = await course(org, 'H thirds', [[T], [F], [F]])
    const i = await course(org, 'I', [[T], [F]])
    await insertCourse(t.database.db, org.id, 'G without registrations')
    const other = await createOrg(t.app, t.database.db)
    await course(other, 'Other organization', [[F]])

    const row = (courseId: string, title: string, avgAttempts: number, passRate: number, enrollments: number) => ({
      courseId,
      course: title,
      avgAttempts,
      passRate,
      enrollments,
    })
    const [first, second] = [d, f].sort()
    expected = [
      row(e, 'E', 1, 0, 2), // passRate 0 and avgAttempts 1: most enrollments first,
      row(first, first === d ? 'D' : 'F', 1, 0, 1), // then courseId ascending
      row(second, second === d ? 'D' : 'F', 1, 0, 1),
      row(c, 'C untried', 0, 0, 2), // no attempts: 0 and 0
      row(h, 'H thirds', 1, 1 / 3, 3),
      row(a, 'A', 2.5, 0.5, 2), // same passRate as I: more attempts first
      row(i, 'I', 1, 0.5, 2),
      row(b, 'B', 1.5, 1, 3),
    ]
  })

  it('lists the organization’s courses with registrations, hardest first, with exact figures', async () => {
    const res = await org.admin.api.get(URL)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: expected })
    expect(res.text).toContain('"passRate":0.3333333333333333')
  })

  it('takes a limit from 1 to 1000', async () => {
    expect((await org.admin.api.get(`${URL}?limit=3`)).body).toEqual({ data: expected.slice(0, 3) })
    expect((await org.admin.api.get(`${URL}?limit=1000`)).body).toEqual({ data: expected })
    for (const [limit, type] of [
      ['0', 'greater_than_equal'],
      ['1001', 'less_than_equal'],
      ['many', 'int_parsing'],
    ]) {
      const res = await org.admin.api.get(`${URL}?limit=${limit}`)
      expect(res.status).toBe(422)
      expect(res.body).toEqual({ detail: [{ loc: ['query', 'limit'], msg: expect.any(String), type }] })
    }
  })

  it('is empty for an organization without registrations', async () => {
    const empty = await createOrg(t.app, t.database.db)
    await insertCourse(t.database.db, empty.id)
    expect((await empty.admin.api.get(URL)).body).toEqual({ data: [] })
  })

  it('is for admins only', async () => {
    for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
      const res = await user.api.get(URL)
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ detail: expect.any(String) })
    }
  })

  it('needs the learn product', async () => {
    const crewOnly = await createOrg(t.app, t.database.db, { products: ['crew'] })
    expect((await crewOnly.admin.api.get(URL)).status).toBe(403)
  })

  it('reads the counters in index order with a limit, never sorting the courses', async () => {
    const plan = await t.database.db.transaction().execute(async (trx) => {
      // Small test tables would be scanned whole; forbidding that shows whether the index can serve the order.
      await sql`set local enable_seqscan = off`.execute(trx)
      await sql`set local enable_bitmapscan = off`.execute(trx)
      const [row] = await courseDifficultyQuery(trx, org.id, 100).explain('json')
      return row['QUERY PLAN'][0].Plan
    })
    const nodes: any[] = []
    const walk = (node: any) => {
      nodes.push(node)
      for (const child of node.Plans ?? []) walk(child)
    }
    walk(plan)
    expect(plan['Node Type']).toBe('Limit')
    expect(nodes.some((n) => n['Index Name'] === 'course_stats_difficulty_idx')).toBe(true)
    expect(nodes.filter((n) => /Sort/.test(n['Node Type']))).toEqual([])
  })
})

describe('course difficulty: which courses, how many', () => {
  it('answers 100 courses unless a limit is given', async () => {
    const org = await createOrg(t.app, t.database.db)
    const ids = Array.from({ length: 101 }, () => uuidv7())
    const courses = ids.map((id, i) => ({ id, organization_id: org.id, title: `C${i}`, s3_path: `c/${i}`, launch_file: 'index.html' }))
    await t.database.db.insertInto('courses').values(courses).execute()
    const stats = ids.map((course_id) => ({ course_id, organization_id: org.id, enrollments: 1 }))
    await t.database.db.insertInto('course_stats').values(stats).execute()
    const byDefault = await org.admin.api.get(URL)
    expect(byDefault.status).toBe(200)
    expect(byDefault.body.data).toHaveLength(100)
    // Ties everywhere: courseId ascending decides, so the default page is the 100 smallest ids.
    const sorted = [...ids].sort()
    expect(byDefault.body.data.map((d: { courseId: string }) => d.courseId)).toEqual(sorted.slice(0, 100))
    expect((await org.admin.api.get(`${URL}?limit=1000`)).body.data).toHaveLength(101)
  })

  it('leaves out a course once its registrations are removed, and keeps one whose registration has attempts', async () => {
    const org = await createOrg(t.app, t.database.db)
    const ship = await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Stats', imoNumber: nextImo() })
    const assignment = await org.admin.api.post('/api/v1/assignments', { userId: org.crew.id, shipId: ship.body.id, role: 'Cook' })
    const [tried, untried] = [await insertCourse(t.database.db, org.id, 'Tried'), await insertCourse(t.database.db, org.id, 'Untried')]
    const body = { assignmentIds: [assignment.body.id], courseIds: [tried, untried] }
    expect((await org.admin.api.post('/api/v1/learn/assignments/bulk/courses', body)).status).toBe(200)
    const registrations = await org.admin.api.get(`/api/v1/learn/registrations?course_id=${tried}`)
    const attemptUrl = `/api/v1/learn/registrations/${registrations.body.items[0].id}/attempts`
    expect((await org.crew.api.post(attemptUrl, { attemptId: uuidv7(), passed: false })).status).toBe(201)
    expect((await org.admin.api.get(URL)).body.data.map((d: { course: string }) => d.course)).toEqual(['Tried', 'Untried'])

    expect((await org.admin.api.post('/api/v1/learn/assignments/bulk/remove-courses', body)).status).toBe(200)
    expect((await org.admin.api.get(URL)).body).toEqual({
      data: [{ courseId: tried, course: 'Tried', avgAttempts: 1, passRate: 0, enrollments: 1 }],
    })
  })
})
