import { describe, expect, it } from 'vitest'
import type { TestApp } from '../../../app.js'
import { insertCourse, type TestOrg } from '../../../factories.js'
import { coursesOf, createAssignment, createCurriculum, createShip, enrollments, NIL, setupTwoOrgs } from '../../../fixtures/assignments.js'

let t: TestApp
let org: TestOrg
let other: TestOrg
setupTwoOrgs((env) => ({ t, org, other } = env))

const db = () => t.database.db
const fresh = async (owner = org) => (await createAssignment(owner, await owner.addUser('crew'), await createShip(owner))).id
const courses = (n: number, owner = org) => Promise.all(Array.from({ length: n }, () => insertCourse(db(), owner.id)))
const assign = (body: unknown, path = '/api/v1/learn/assignments/bulk/courses') => org.admin.api.post(path, body)
const remove = (body: unknown, path = '/api/v1/learn/assignments/bulk/remove-courses') => org.admin.api.post(path, body)
const pair = (assignmentId: string, courseId: string) => `${assignmentId}/${courseId}`

describe('bulk assign courses', () => {
  it('adds the courses, each new pair with a registration counted in enrollments; foreign and unknown ids fail', async () => {
    const [a, b, theirs] = [await fresh(), await fresh(), await fresh(other)]
    const [x, y] = await courses(2)
    expect((await assign({ assignmentIds: [b], courseIds: [x] })).body).toEqual({
      updatedCount: 1,
      totalCoursesAssigned: 1,
      failedAssignmentIds: [],
    })
    const res = await assign({ assignmentIds: [a, NIL, b, theirs], courseIds: [x, y] })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ updatedCount: 2, totalCoursesAssigned: 3, failedAssignmentIds: [NIL, theirs] })
    const expected = [pair(a, x), pair(a, y), pair(b, x), pair(b, y)].sort()
    expect(await coursesOf(db(), [a, b, theirs])).toEqual(expect.objectContaining({ pairs: expected, registrations: expected }))
    expect(await enrollments(db(), [x, y])).toEqual({ [x]: 2, [y]: 2 })

    const again = await assign({ assignmentIds: [a, b, theirs], courseIds: [y, x] }, '/api/v1/assignments/bulk/courses')
    expect(again.body).toEqual({ updatedCount: 0, totalCoursesAssigned: 0, failedAssignmentIds: [theirs] })
    expect(await enrollments(db(), [x, y])).toEqual({ [x]: 2, [y]: 2 })
  })

  it('takes the courses of a curriculum, together with listed ones, without counting a course twice', async () => {
    const a = await fresh()
    const [p, q, r] = await courses(3)
    const curriculumId = await createCurriculum(db(), org.id, [p, q])
    const res = await assign({ assignmentIds: [a], courseIds: [r, p], curriculumId })
    expect(res.body).toEqual({ updatedCount: 1, totalCoursesAssigned: 3, failedAssignmentIds: [] })
    expect((await coursesOf(db(), [a])).registrations).toEqual([pair(a, p), pair(a, q), pair(a, r)].sort())
    expect(await enrollments(db(), [p, q, r])).toEqual({ [p]: 1, [q]: 1, [r]: 1 })
  })

  it('refuses courses and curriculums the organization does not have, and empty requests (422, nothing written)', async () => {
    const a = await fresh()
    const [mine] = await courses(1)
    const [theirs] = await courses(1, other)
    const theirCurriculum = await createCurriculum(db(), other.id, [theirs])
    const res = await assign({ assignmentIds: [a], courseIds: [mine, theirs, NIL], curriculumId: theirCurriculum })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      { loc: ['body', 'curriculumId'], msg: 'Curriculum not found', type: 'value_error' },
      { loc: ['body', 'courseIds', 1], msg: 'Course not found', type: 'value_error' },
      { loc: ['body', 'courseIds', 2], msg: 'Course not found', type: 'value_error' },
    ])
    for (const body of [{ assignmentIds: [a] }, { assignmentIds: [a], courseIds: [] }]) {
      expect((await assign(body)).body).toEqual({ detail: [{ loc: ['body'], msg: 'Give courseIds or curriculumId', type: 'value_error' }] })
    }
    const dup = await assign({ assignmentIds: [a], courseIds: [mine, mine] })
    expect(dup.body).toEqual({ detail: [{ loc: ['body', 'courseIds'], msg: expect.any(String), type: 'value_error' }] })
    const tooMany = await assign({ assignmentIds: Array.from({ length: 1001 }, () => crypto.randomUUID()), courseIds: [mine] })
    expect(tooMany.body).toEqual({ detail: [{ loc: ['body', 'assignmentIds'], msg: expect.any(String), type: 'too_long' }] })
    expect(await coursesOf(db(), [a])).toEqual({ pairs: [], registrations: [], rows: [] })
    expect(await enrollments(db(), [mine])).toEqual({ [mine]: 0 })
  })
})

describe('bulk remove courses', () => {
  it('removes listed courses, skips assignments without them, keeps registrations that have attempts', async () => {
    const [a, b, e, theirs] = [await fresh(), await fresh(), await fresh(), await fresh(other)]
    const [x, y, z] = await courses(3)
    await assign({ assignmentIds: [a], courseIds: [x, y, z] })
    await assign({ assignmentIds: [b], courseIds: [x] })
    await db()
      .updateTable('registrations')
      .set({ attempt_count: 2, status: 'failed' })
      .where('assignment_id', '=', a)
      .where('course_id', '=', x)
      .execute()
    const tried = (await coursesOf(db(), [a])).rows.find((r) => r.course_id === x)!
    expect(await enrollments(db(), [x, y, z])).toEqual({ [x]: 2, [y]: 1, [z]: 1 })

    const res = await remove({ assignmentIds: [a, b, e, NIL, theirs], courseIds: [x, y] })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ updatedCount: 2, totalCoursesRemoved: 3, failedAssignmentIds: [NIL, theirs] })
    const after = await coursesOf(db(), [a, b, e])
    expect(after.pairs).toEqual([pair(a, z)])
    expect(after.registrations).toEqual([pair(a, x), pair(a, z)].sort())
    expect(await enrollments(db(), [x, y, z])).toEqual({ [x]: 1, [y]: 0, [z]: 1 })

    const again = await remove({ assignmentIds: [a, b], courseIds: [x, y] }, '/api/v1/assignments/bulk/remove-courses')
    expect(again.body).toEqual({ updatedCount: 0, totalCoursesRemoved: 0, failedAssignmentIds: [] })

    // Assigning the course again reuses the kept registration: no second enrollment.
    expect((await assign({ assignmentIds: [a], courseIds: [x] })).body).toEqual({
      updatedCount: 1,
      totalCoursesAssigned: 1,
      failedAssignmentIds: [],
    })
    const reused = (await coursesOf(db(), [a])).rows.filter((r) => r.course_id === x)
    expect(reused).toEqual([tried])
    expect(await enrollments(db(), [x])).toEqual({ [x]: 1 })
  })

  it('validates the request (422) and removes nothing', async () => {
    const a = await fresh()
    const [mine] = await courses(1)
    await assign({ assignmentIds: [a], courseIds: [mine] })
    const cases: [unknown, object[]][] = [
      [{ assignmentIds: [a] }, [{ loc: ['body', 'courseIds'], msg: 'Field required', type: 'missing' }]],
      [{ assignmentIds: [a], courseIds: [] }, [{ loc: ['body', 'courseIds'], msg: expect.any(String), type: 'too_short' }]],
      [
        { assignmentIds: [a, a], courseIds: [mine, mine] },
        [
          { loc: ['body', 'assignmentIds'], msg: expect.any(String), type: 'value_error' },
          { loc: ['body', 'courseIds'], msg: expect.any(String), type: 'value_error' },
        ],
      ],
      [
        { assignmentIds: [a], courseIds: [mine, mine.toUpperCase()] },
        [{ loc: ['body', 'courseIds'], msg: expect.any(String), type: 'value_error' }],
      ],
      [
        { assignmentIds: [a], courseIds: [mine, 'nope'] },
        [{ loc: ['body', 'courseIds', 1], msg: expect.any(String), type: 'uuid_parsing' }],
      ],
      [
        { assignmentIds: [a], courseIds: Array.from({ length: 1001 }, () => crypto.randomUUID()) },
        [{ loc: ['body', 'courseIds'], msg: expect.any(String), type: 'too_long' }],
      ],
    ]
    for (const [body, detail] of cases) {
      const res = await remove(body)
      expect([res.status, res.body]).toEqual([422, { detail }])
    }
    expect((await coursesOf(db(), [a])).pairs).toEqual([pair(a, mine)])
    expect(await enrollments(db(), [mine])).toEqual({ [mine]: 1 })
  })

  it('skips course ids no listed assignment has, unknown and foreign ones alike: never a 422', async () => {
    const [a, b] = [await fresh(), await fresh()]
    const theirs = await fresh(other)
    const [x, y] = await courses(2)
    const [foreign] = await courses(1, other)
    await assign({ assignmentIds: [a], courseIds: [x, y] })
    await assign({ assignmentIds: [b], courseIds: [x] })
    expect(
      (await other.admin.api.post('/api/v1/learn/assignments/bulk/courses', { assignmentIds: [theirs], courseIds: [foreign] })).status,
    ).toBe(200)
    const theirsBefore = await coursesOf(db(), [theirs])
    const nothing = { updatedCount: 0, totalCoursesRemoved: 0, failedAssignmentIds: [] }

    for (const courseIds of [[NIL], [foreign], [foreign, NIL]]) {
      const res = await remove({ assignmentIds: [a, b], courseIds })
      expect([courseIds, res.status, res.body]).toEqual([courseIds, 200, nothing])
    }
    expect((await coursesOf(db(), [a, b])).pairs).toEqual([pair(a, x), pair(a, y), pair(b, x)].sort())

    const mixed = await remove({ assignmentIds: [a, theirs, b], courseIds: [foreign, x, NIL, y] })
    expect([mixed.status, mixed.body]).toEqual([200, { updatedCount: 2, totalCoursesRemoved: 3, failedAssignmentIds: [theirs] }])
    expect(await coursesOf(db(), [a, b])).toEqual({ pairs: [], registrations: [], rows: [] })
    expect(await enrollments(db(), [x, y])).toEqual({ [x]: 0, [y]: 0 })
    // The other organization's course, pair, registration and enrollment are untouched.
    expect(await coursesOf(db(), [theirs])).toEqual(theirsBefore)
    expect(theirsBefore.pairs).toEqual([pair(theirs, foreign)])
    expect(await enrollments(db(), [foreign])).toEqual({ [foreign]: 1 })
  })

  it('accepts a cleanup re-sent after the course was deleted (idempotent)', async () => {
    const a = await fresh()
    const [gone] = await courses(1)
    await assign({ assignmentIds: [a], courseIds: [gone] })
    expect((await org.admin.api.delete(`/api/v1/learn/courses/${gone}`)).status).toBe(204)
    const res = await remove({ assignmentIds: [a], courseIds: [gone] })
    expect([res.status, res.body]).toEqual([200, { updatedCount: 0, totalCoursesRemoved: 0, failedAssignmentIds: [] }])
  })
})
