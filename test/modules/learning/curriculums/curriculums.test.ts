import { v7 as uuidv7 } from 'uuid'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'

const t = useTestApp()

const BASE = '/api/v1/learn/curriculums'
const newOrg = (products?: ('learn' | 'crew')[]) => createOrg(t.app, t.database.db, { products })

async function createCourse(org: TestOrg, title: string) {
  const res = await org.admin.api.post('/api/v1/courses', {
    organization_id: org.id,
    s3_path: 's3://b/c/',
    launch_file: 'index.html',
    title,
  })
  expect(res.status).toBe(201)
  return { courseId: res.body.id as string, title }
}

async function createCurriculum(org: TestOrg, body: Record<string, unknown> = { title: 'Deck basics' }) {
  const res = await org.admin.api.post(BASE, body)
  expect(res.status).toBe(201)
  return res.body as { id: string; title: string; description: string; courses: unknown[]; createdAt: string }
}

const add = (org: TestOrg, curriculumId: string, courseId: string) =>
  org.admin.api.post(`${BASE}/${curriculumId}/courses?course_id=${courseId}`)
const remove = (org: TestOrg, curriculumId: string, courseId: string) => org.admin.api.delete(`${BASE}/${curriculumId}/courses/${courseId}`)

describe('curriculums', () => {
  it('creates a curriculum with an empty description when none is given', async () => {
    const org = await newOrg()
    const res = await org.admin.api.post(BASE, { title: 'Deck basics' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Deck basics',
      description: '',
      courses: [],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    })
    expect((await org.crew.api.get(`${BASE}/${res.body.id}`)).body).toEqual(res.body)
    expect((await org.admin.api.post(`${BASE}/`, { title: 'Null', description: null })).body.description).toBe('')
    expect((await org.admin.api.post(BASE, { title: 'Given', description: 'For cadets' })).body.description).toBe('For cadets')
  })

  it('validates the title and description', async () => {
    const org = await newOrg()
    const missing = await org.admin.api.post(BASE, { description: 'd'.repeat(5001) })
    expect(missing.status).toBe(422)
    expect(missing.body).toEqual({
      detail: [
        { loc: ['body', 'title'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'description'], msg: expect.any(String), type: 'string_too_long' },
      ],
    })
    for (const [title, type] of [
      ['', 'string_too_short'],
      ['t'.repeat(301), 'string_too_long'],
      [3, 'string_type'],
    ]) {
      const res = await org.admin.api.post(BASE, { title })
      expect(res.body).toEqual({ detail: [{ loc: ['body', 'title'], msg: expect.any(String), type }] })
    }
    expect((await org.admin.api.get(`${BASE}?include_count=true`)).body.totalCount).toBe(0)
  })

  it('keeps courses in the order added; adding and removing are idempotent', async () => {
    const org = await newOrg()
    const [a, b, c] = [await createCourse(org, 'A'), await createCourse(org, 'B'), await createCourse(org, 'C')]
    const curriculum = await createCurriculum(org)
    for (const course of [c, a, b]) expect((await add(org, curriculum.id, course.courseId)).status).toBe(200)
    const again = await add(org, curriculum.id, a.courseId)
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ ...curriculum, courses: [c, a, b] })

    const removed = await remove(org, curriculum.id, a.courseId)
    expect(removed.status).toBe(200)
    expect(removed.body).toEqual({ ...curriculum, courses: [c, b] })
    const removedAgain = await remove(org, curriculum.id, a.courseId)
    expect(removedAgain.status).toBe(200)
    expect(removedAgain.body).toEqual(removed.body)

    expect((await add(org, curriculum.id, a.courseId)).body.courses).toEqual([c, b, a])
    expect((await org.crew.api.get(`${BASE}/${curriculum.id}`)).body.courses).toEqual([c, b, a])
  })

  it('shows the current course titles and drops a deleted course', async () => {
    const org = await newOrg()
    const [a, b] = [await createCourse(org, 'A'), await createCourse(org, 'B')]
    const curriculum = await createCurriculum(org)
    await add(org, curriculum.id, a.courseId)
    await add(org, curriculum.id, b.courseId)
    await org.admin.api.patch(`/api/v1/courses/${a.courseId}`, { title: 'A2' })
    expect((await org.admin.api.delete(`/api/v1/courses/${b.courseId}`)).status).toBe(204)
    expect((await org.admin.api.get(`${BASE}/${curriculum.id}`)).body.courses).toEqual([{ courseId: a.courseId, title: 'A2' }])
  })

  it('takes the course as the course_id query parameter', async () => {
    const org = await newOrg()
    const curriculum = await createCurriculum(org)
    const missing = await org.admin.api.post(`${BASE}/${curriculum.id}/courses`)
    expect(missing.status).toBe(422)
    expect(missing.body).toEqual({ detail: [{ loc: ['query', 'course_id'], msg: 'Field required', type: 'missing' }] })
    const malformed = await org.admin.api.post(`${BASE}/nope/courses?course_id=nope`)
    expect(malformed.body).toEqual({
      detail: [
        { loc: ['path', 'curriculum_id'], msg: expect.any(String), type: 'uuid_parsing' },
        { loc: ['query', 'course_id'], msg: expect.any(String), type: 'uuid_parsing' },
      ],
    })
  })

  it('answers 404 for a curriculum or course of another organization or none', async () => {
    const org = await newOrg()
    const other = await newOrg()
    const mine = await createCurriculum(org)
    const myCourse = await createCourse(org, 'Mine')
    const theirs = await createCurriculum(other)
    const theirCourse = await createCourse(other, 'Theirs')
    const cases: [string, string][] = [
      [mine.id, theirCourse.courseId],
      [mine.id, uuidv7()],
      [theirs.id, myCourse.courseId],
      [uuidv7(), myCourse.courseId],
    ]
    for (const [curriculumId, courseId] of cases) {
      for (const res of [await add(org, curriculumId, courseId), await remove(org, curriculumId, courseId)]) {
        expect(res.status).toBe(404)
        expect(res.body).toEqual({ detail: expect.any(String) })
      }
    }
    for (const request of [
      org.admin.api.get(`${BASE}/${theirs.id}`),
      org.admin.api.patch(`${BASE}/${theirs.id}`, { title: 'Mine now' }),
      org.admin.api.delete(`${BASE}/${theirs.id}`),
    ]) {
      expect((await request).status).toBe(404)
    }
    expect((await other.admin.api.get(`${BASE}/${theirs.id}`)).body).toEqual(theirs)
    expect((await org.admin.api.get(`${BASE}/${mine.id}`)).body.courses).toEqual([])
  })

  it('updates title and description; an empty PATCH changes nothing', async () => {
    const org = await newOrg()
    const course = await createCourse(org, 'A')
    const curriculum = await createCurriculum(org, { title: 'Old', description: 'Old text' })
    await add(org, curriculum.id, course.courseId)
    const res = await org.admin.api.patch(`${BASE}/${curriculum.id}`, { title: 'New', description: null })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...curriculum, title: 'New', description: '', courses: [course] })
    const empty = await org.admin.api.patch(`${BASE}/${curriculum.id}/`, {})
    expect(empty.status).toBe(200)
    expect(empty.body).toEqual(res.body)
    expect((await org.admin.api.patch(`${BASE}/${curriculum.id}`, { title: '' })).status).toBe(422)
    expect((await org.admin.api.get(`${BASE}/${curriculum.id}`)).body).toEqual(res.body)
  })

  it('deletes a curriculum and keeps its courses', async () => {
    const org = await newOrg()
    const course = await createCourse(org, 'Kept')
    const curriculum = await createCurriculum(org)
    await add(org, curriculum.id, course.courseId)
    const res = await org.admin.api.delete(`${BASE}/${curriculum.id}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect((await org.admin.api.get(`${BASE}/${curriculum.id}`)).status).toBe(404)
    expect((await org.admin.api.get(`/api/v1/courses/${course.courseId}`)).status).toBe(200)
  })

  it('lists curriculums with their courses in the cursor envelope', async () => {
    const org = await newOrg()
    const other = await newOrg()
    await createCurriculum(other)
    const [a, b] = [await createCourse(org, 'A'), await createCourse(org, 'B')]
    const created = []
    for (let i = 0; i < 5; i++) created.push(await createCurriculum(org, { title: `Track ${i}` }))
    await add(org, created[4].id, b.courseId)
    await add(org, created[4].id, a.courseId)
    await add(org, created[3].id, a.courseId)

    const first = await org.crew.api.get(`${BASE}?limit=2&include_count=true`)
    expect(first.status).toBe(200)
    expect(first.body).toEqual({
      items: [
        { ...created[4], courses: [b, a] },
        { ...created[3], courses: [a] },
      ],
      nextCursor: expect.any(String),
      hasMore: true,
      totalCount: 5,
    })
    const ids = first.body.items.map((c: { id: string }) => c.id)
    let cursor = first.body.nextCursor
    while (cursor) {
      const page = await org.crew.api.get(`${BASE}/?limit=2&cursor=${cursor}`)
      expect(page.body.totalCount).toBeNull()
      ids.push(...page.body.items.map((c: { id: string }) => c.id))
      cursor = page.body.nextCursor
      if (!cursor) expect(page.body.hasMore).toBe(false)
    }
    expect(ids).toEqual(created.map((c) => c.id).reverse())

    const found = await org.crew.api.get(`${BASE}?search=TRACK%203&include_count=true`)
    expect(found.body).toEqual({ items: [{ ...created[3], courses: [a] }], nextCursor: null, hasMore: false, totalCount: 1 })
    for (const query of ['limit=0', 'limit=1001', 'cursor=bad']) expect((await org.crew.api.get(`${BASE}?${query}`)).status).toBe(422)
  })

  it('lets only admins write, and everyone read', async () => {
    const org = await newOrg()
    const course = await createCourse(org, 'A')
    const curriculum = await createCurriculum(org)
    for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
      for (const request of [
        user.api.post(BASE, { title: 'X' }),
        user.api.patch(`${BASE}/${curriculum.id}`, { title: 'X' }),
        user.api.delete(`${BASE}/${curriculum.id}`),
        user.api.post(`${BASE}/${curriculum.id}/courses?course_id=${course.courseId}`),
        user.api.delete(`${BASE}/${curriculum.id}/courses/${course.courseId}`),
      ]) {
        const res = await request
        expect(res.status).toBe(403)
        expect(res.body).toEqual({ detail: expect.any(String) })
      }
      expect((await user.api.get(`${BASE}/${curriculum.id}`)).body).toEqual(curriculum)
      expect((await user.api.get(BASE)).body.items).toEqual([curriculum])
    }
  })

  it('needs the learn product', async () => {
    const org = await newOrg(['crew'])
    expect((await org.admin.api.post(BASE, { title: 'X' })).status).toBe(403)
    expect((await org.crew.api.get(BASE)).status).toBe(403)
    expect((await org.admin.api.post(`${BASE}/${uuidv7()}/courses?course_id=${uuidv7()}`)).status).toBe(403)
  })
})
