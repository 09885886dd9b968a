import { sql } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { describe, expect, it } from 'vitest'
import { SEARCH_WINDOW } from '../../../../src/modules/learning/courses/courses.queries.js'
import { type Client, useTestApp } from '../../../app.js'
import { createOrg, nextImo, type TestOrg } from '../../../factories.js'

const t = useTestApp()

const newOrg = (products?: ('learn' | 'crew')[]) => createOrg(t.app, t.database.db, { products })

const courseBody = (org: TestOrg, fields: Record<string, unknown> = {}) => ({
  organization_id: org.id,
  s3_path: 's3://bucket/courses/fire-safety/',
  launch_file: 'index.html',
  title: 'Fire Safety',
  ...fields,
})

async function createCourse(org: TestOrg, fields: Record<string, unknown> = {}) {
  const res = await org.admin.api.post('/api/v1/courses/', courseBody(org, fields))
  expect(res.status).toBe(201)
  return res.body as { id: string; title: string; created_at: string }
}

/** A registration of the course on a fresh assignment of the org's crew member, written directly. */
async function addRegistration(org: TestOrg, courseId: string, attemptCount: number) {
  const db = t.database.db
  const shipId = uuidv7()
  const assignmentId = uuidv7()
  await db.insertInto('ships').values({ id: shipId, organization_id: org.id, name: 'MV Reg', imo_number: nextImo() }).execute()
  await db
    .insertInto('assignments')
    .values({ id: assignmentId, organization_id: org.id, user_id: org.crew.id, ship_id: shipId, role: 'Bosun' })
    .execute()
  const id = uuidv7()
  await db
    .insertInto('registrations')
    .values({ id, organization_id: org.id, assignment_id: assignmentId, course_id: courseId, attempt_count: attemptCount })
    .execute()
  return id
}

async function walk(api: Client, url: string, onPage: (page: number) => Promise<void> = async () => {}) {
  const ids: string[] = []
  let cursor: string | null = null
  for (let page = 0; page < 50; page++) {
    const res: { status: number; body: any } = await api.get(`${url}${cursor ? `&cursor=${cursor}` : ''}`)
    expect(res.status).toBe(200)
    ids.push(...res.body.items.map((item: { id: string }) => item.id))
    expect(res.body.hasMore).toBe(res.body.nextCursor !== null)
    if (!res.body.hasMore) return { ids, pages: page + 1 }
    cursor = res.body.nextCursor
    await onPage(page)
  }
  throw new Error('the walk did not end')
}

describe('course creation (spec 8)', () => {
  it('answers 201 with the snake_case course, readable again at both paths', async () => {
    const org = await newOrg()
    const res = await org.admin.api.post('/api/v1/courses/', courseBody(org, { description: 'Basics' }))
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      organization_id: org.id,
      s3_path: 's3://bucket/courses/fire-safety/',
      launch_file: 'index.html',
      title: 'Fire Safety',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: res.body.created_at,
      description: 'Basics',
      certificate: null,
    })
    for (const path of ['/api/v1/courses', '/api/v1/courses/', '/api/v1/learn/courses', '/api/v1/learn/courses/']) {
      expect((await org.crew.api.get(`${path}${path.endsWith('/') ? '' : '/'}${res.body.id}`)).body).toEqual(res.body)
    }
  })

  it('is also served at /api/v1/learn/courses, with description null when omitted', async () => {
    const org = await newOrg()
    const res = await org.admin.api.post('/api/v1/learn/courses', courseBody(org, { launch_file: 'content/start.html' }))
    expect(res.status).toBe(201)
    expect(res.body.description).toBeNull()
    expect(res.body.launch_file).toBe('content/start.html')
    const list = await org.admin.api.get('/api/v1/learn/courses/')
    expect(list.body.items.map((c: { id: string }) => c.id)).toEqual([res.body.id])
  })

  it('reports every missing field at once', async () => {
    const org = await newOrg()
    const res = await org.admin.api.post('/api/v1/courses/', {})
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      detail: ['organization_id', 's3_path', 'launch_file', 'title'].map((field) => ({
        loc: ['body', field],
        msg: 'Field required',
        type: 'missing',
      })),
    })
  })

  it('enforces the field limits', async () => {
    const org = await newOrg()
    const tooLong = await org.admin.api.post(
      '/api/v1/courses/',
      courseBody(org, { s3_path: 'x'.repeat(1025), launch_file: 'a'.repeat(513), title: 't'.repeat(301), description: 'd'.repeat(5001) }),
    )
    expect(tooLong.status).toBe(422)
    expect(tooLong.body.detail).toEqual(
      ['s3_path', 'launch_file', 'title', 'description'].map((field) => ({
        loc: ['body', field],
        msg: expect.any(String),
        type: 'string_too_long',
      })),
    )
    const tooShort = await org.admin.api.post('/api/v1/courses/', courseBody(org, { s3_path: '', launch_file: '', title: '' }))
    expect(tooShort.body.detail).toEqual(
      ['s3_path', 'launch_file', 'title'].map((field) => ({ loc: ['body', field], msg: expect.any(String), type: 'string_too_short' })),
    )
    const atLimits = await org.admin.api.post(
      '/api/v1/courses/',
      courseBody(org, { s3_path: 'x'.repeat(1024), launch_file: 'a'.repeat(512), title: 't'.repeat(300), description: 'd'.repeat(5000) }),
    )
    expect(atLimits.status).toBe(201)
  })

  it('refuses a launch file that is not relative to the package or climbs out of it', async () => {
    const org = await newOrg()
    for (const launch_file of [
      '/index.html',
      '../index.html',
      'a/../../b.html',
      'a\\..\\b.html',
      '\\index.html',
      'https://x.test/i.html',
      '..',
    ]) {
      const res = await org.admin.api.post('/api/v1/courses/', courseBody(org, { launch_file }))
      expect(res.status, launch_file).toBe(422)
      expect(res.body.detail).toEqual([{ loc: ['body', 'launch_file'], msg: expect.any(String), type: 'value_error' }])
    }
    for (const launch_file of ['a/b/index.html', 'story..html', './index.html']) {
      expect((await org.admin.api.post('/api/v1/courses/', courseBody(org, { launch_file }))).status, launch_file).toBe(201)
    }
    expect((await org.admin.api.get('/api/v1/courses/?include_count=true')).body.totalCount).toBe(3)
  })

  it('checks types strictly and reports a malformed organization_id', async () => {
    const org = await newOrg()
    const res = await org.admin.api.post('/api/v1/courses/', courseBody(org, { organization_id: 'nope', title: 5, description: 7 }))
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([
      { loc: ['body', 'organization_id'], msg: expect.any(String), type: 'uuid_parsing' },
      { loc: ['body', 'title'], msg: expect.any(String), type: 'string_type' },
      { loc: ['body', 'description'], msg: expect.any(String), type: 'string_type' },
    ])
  })

  it('is for admins of the named organization only', async () => {
    const org = await newOrg()
    const other = await newOrg()
    for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
      const res = await user.api.post('/api/v1/courses/', courseBody(org))
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ detail: expect.any(String) })
    }
    const foreign = await org.admin.api.post('/api/v1/courses/', courseBody(org, { organization_id: other.id }))
    expect(foreign.status).toBe(403)
    expect(foreign.body).toEqual({ detail: expect.any(String) })
    const upperCase = await org.admin.api.post('/api/v1/courses/', courseBody(org, { organization_id: org.id.toUpperCase() }))
    expect(upperCase.status).toBe(201)
    for (const o of [org, other])
      expect((await o.admin.api.get('/api/v1/courses/?include_count=true')).body.totalCount).toBe(o === org ? 1 : 0)
  })

  it('needs the learn product, at both paths', async () => {
    const org = await newOrg(['crew'])
    for (const path of ['/api/v1/courses/', '/api/v1/learn/courses']) {
      expect((await org.admin.api.post(path, courseBody(org))).status).toBe(403)
      expect((await org.crew.api.get(path)).status).toBe(403)
      expect((await org.admin.api.get(`${path.replace(/\/$/, '')}/${uuidv7()}`)).status).toBe(403)
    }
  })
})

describe('one course', () => {
  it('updates only the fields sent and keeps the course in its organization', async () => {
    const org = await newOrg()
    const course = await createCourse(org, { description: 'Old' })
    const res = await org.admin.api.patch(`/api/v1/courses/${course.id}`, {
      title: 'Fire Safety 2',
      description: null,
      organization_id: org.id,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...course, title: 'Fire Safety 2', description: null, updated_at: expect.any(String) })
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(course.created_at))
    expect((await org.admin.api.get(`/api/v1/learn/courses/${course.id}`)).body).toEqual(res.body)
    const empty = await org.admin.api.patch(`/api/v1/learn/courses/${course.id}/`, {})
    expect(empty.status).toBe(200)
    expect(empty.body).toEqual(res.body)
  })

  it('validates a PATCH like a creation and refuses a move to another organization', async () => {
    const org = await newOrg()
    const other = await newOrg()
    const course = await createCourse(org)
    const bad = await org.admin.api.patch(`/api/v1/courses/${course.id}`, { launch_file: '../x.html', title: '' })
    expect(bad.status).toBe(422)
    expect(bad.body.detail).toEqual([
      { loc: ['body', 'launch_file'], msg: expect.any(String), type: 'value_error' },
      { loc: ['body', 'title'], msg: expect.any(String), type: 'string_too_short' },
    ])
    expect((await org.admin.api.patch(`/api/v1/courses/${course.id}`, { organization_id: other.id })).status).toBe(403)
    expect((await org.admin.api.get(`/api/v1/courses/${course.id}`)).body).toEqual(course)
  })

  it('answers 404 for a course of another organization or none, and 422 for a malformed id', async () => {
    const org = await newOrg()
    const other = await newOrg()
    const foreign = await createCourse(other)
    for (const id of [foreign.id, uuidv7()]) {
      expect((await org.admin.api.get(`/api/v1/courses/${id}`)).status).toBe(404)
      expect((await org.admin.api.patch(`/api/v1/courses/${id}`, { title: 'Mine' })).status).toBe(404)
      expect((await org.admin.api.delete(`/api/v1/learn/courses/${id}`)).status).toBe(404)
    }
    expect((await other.admin.api.get(`/api/v1/courses/${foreign.id}`)).body).toEqual(foreign)
    const malformed = await org.admin.api.get('/api/v1/courses/not-a-uuid')
    expect(malformed.status).toBe(422)
    expect(malformed.body).toEqual({ detail: [{ loc: ['path', 'course_id'], msg: expect.any(String), type: 'uuid_parsing' }] })
  })

  it('lets only admins change or delete', async () => {
    const org = await newOrg()
    const course = await createCourse(org)
    for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
      expect((await user.api.patch(`/api/v1/courses/${course.id}`, { title: 'X' })).status).toBe(403)
      expect((await user.api.delete(`/api/v1/courses/${course.id}`)).status).toBe(403)
      expect((await user.api.get(`/api/v1/courses/${course.id}`)).body).toEqual(course)
    }
  })

  it('deletes a course with untried registrations, and refuses one whose registrations have attempts', async () => {
    const org = await newOrg()
    const untried = await createCourse(org, { title: 'Untried' })
    const registrationId = await addRegistration(org, untried.id, 0)
    const deleted = await org.admin.api.delete(`/api/v1/courses/${untried.id}`)
    expect(deleted.status).toBe(204)
    expect(deleted.text).toBe('')
    expect((await org.admin.api.get(`/api/v1/courses/${untried.id}`)).status).toBe(404)
    const left = await t.database.db.selectFrom('registrations').select('id').where('id', '=', registrationId).execute()
    expect(left).toEqual([])

    const tried = await createCourse(org, { title: 'Tried' })
    await addRegistration(org, tried.id, 0)
    await addRegistration(org, tried.id, 2)
    const refused = await org.admin.api.delete(`/api/v1/learn/courses/${tried.id}`)
    expect(refused.status).toBe(409)
    expect(refused.body).toEqual({ detail: expect.any(String) })
    expect((await org.admin.api.get(`/api/v1/courses/${tried.id}`)).body).toEqual(tried)
    const kept = await t.database.db.selectFrom('registrations').select('id').where('course_id', '=', tried.id).execute()
    expect(kept).toHaveLength(2)
  })
})

describe('course list (spec 9)', () => {
  it('lists CourseDetailDTO items newest first, with enrollmentCount from the course counters', async () => {
    const org = await newOrg()
    const first = await createCourse(org, { title: 'First', description: 'One' })
    const second = await createCourse(org, { title: 'Second' })
    await t.database.db.insertInto('course_stats').values({ course_id: first.id, organization_id: org.id, enrollments: 7 }).execute()
    const res = await org.crew.api.get('/api/v1/courses/')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      items: [
        { id: second.id, title: 'Second', description: null, createdAt: second.created_at, enrollmentCount: 0 },
        { id: first.id, title: 'First', description: 'One', createdAt: first.created_at, enrollmentCount: 7 },
      ],
      nextCursor: null,
      hasMore: false,
      totalCount: null,
    })
    expect((await org.admin.api.get('/api/v1/learn/courses?include_count=true')).body).toEqual({ ...res.body, totalCount: 2 })
  })

  it('counts the registrations of each course in enrollmentCount as courses are assigned and removed', async () => {
    const org = await newOrg()
    const course = await createCourse(org, { title: 'Counted' })
    const untouched = await createCourse(org, { title: 'Untouched' })
    const ship = await org.admin.api.post('/api/v1/shared/ships', { name: 'MV Count', imoNumber: nextImo() })
    const assignmentIds: string[] = []
    for (const user of [org.crew, org.officeEmployee]) {
      const res = await org.admin.api.post('/api/v1/assignments', { userId: user.id, shipId: ship.body.id, role: 'Cook' })
      assignmentIds.push(res.body.id)
    }
    const counts = async () =>
      Object.fromEntries(
        (await org.crew.api.get('/api/v1/courses/')).body.items.map((c: { title: string; enrollmentCount: number }) => [
          c.title,
          c.enrollmentCount,
        ]),
      )
    expect(await counts()).toEqual({ Counted: 0, Untouched: 0 })
    await org.admin.api.post('/api/v1/assignments/bulk/courses', { assignmentIds, courseIds: [course.id] })
    expect(await counts()).toEqual({ Counted: 2, Untouched: 0 })
    const removal = { assignmentIds: assignmentIds.slice(1), courseIds: [course.id, untouched.id] }
    expect((await org.admin.api.post('/api/v1/assignments/bulk/remove-courses', removal)).status).toBe(200)
    expect(await counts()).toEqual({ Counted: 1, Untouched: 0 })
  })

  it('shows only the caller organization', async () => {
    const org = await newOrg()
    const other = await newOrg()
    await createCourse(other)
    const mine = await createCourse(org)
    const res = await org.admin.api.get('/api/v1/courses?include_count=1')
    expect(res.body.items.map((c: { id: string }) => c.id)).toEqual([mine.id])
    expect(res.body.totalCount).toBe(1)
  })

  it('walks every course exactly once, newest first, even when courses are added between pages', async () => {
    const org = await newOrg()
    const created: string[] = []
    for (let i = 0; i < 25; i++) created.push((await createCourse(org, { title: `Course ${i}` })).id)
    const added: string[] = []
    const { ids, pages } = await walk(org.admin.api, '/api/v1/courses/?limit=10', async () => {
      added.push((await createCourse(org, { title: 'Late' })).id)
    })
    expect(pages).toBe(3)
    expect(ids).toEqual([...created].reverse())
    expect(added).toHaveLength(2)
    const last = await org.admin.api.get('/api/v1/courses/?limit=27&include_count=true')
    expect(last.body).toMatchObject({ nextCursor: null, hasMore: false, totalCount: 27 })
  })

  it('walks courses written within one millisecond exactly once: the cursor keeps the microsecond', async () => {
    const org = await newOrg()
    const ids = Array.from({ length: 6 }, () => uuidv7()).sort()
    // Six courses 100 µs apart inside one millisecond, their ids descending as their times ascend, so a
    // cursor cut to the millisecond would skip the courses after the first page's last.
    const values = ids.map((id, i) => ({
      id,
      organization_id: org.id,
      s3_path: 'courses/same-ms',
      launch_file: 'index.html',
      title: `Same millisecond ${i}`,
      created_at: new Date(Date.UTC(2026, 5, 1, 8, 0, 0, 0)),
    }))
    await t.database.db.insertInto('courses').values(values).execute()
    await sql`update courses set created_at = created_at + (interval '100 microseconds' * (6 - right(title, 1)::int))
      where organization_id = ${org.id}`.execute(t.database.db)
    // Newest first (created_at, then id, descending) is the order the ids were made in.
    for (const path of ['/api/v1/courses/?limit=2', '/api/v1/courses/?limit=2&search=same', '/api/v1/courses/?limit=2&include_count=true']) {
      expect((await walk(org.admin.api, path)).ids).toEqual(ids)
    }
  })

  it('ends with hasMore false on a page that ends on the last item, and defaults to 10 items', async () => {
    const org = await newOrg()
    for (let i = 0; i < 12; i++) await createCourse(org, { title: `C${i}` })
    const first = await org.admin.api.get('/api/v1/courses/')
    expect(first.body.items).toHaveLength(10)
    expect(first.body.hasMore).toBe(true)
    expect(first.body.nextCursor).toEqual(expect.any(String))
    const exact = await org.admin.api.get(`/api/v1/courses/?limit=2&cursor=${first.body.nextCursor}`)
    expect(exact.body.items).toHaveLength(2)
    expect(exact.body).toMatchObject({ hasMore: false, nextCursor: null, totalCount: null })
    expect((await org.admin.api.get('/api/v1/courses/?limit=12')).body).toMatchObject({ hasMore: false, nextCursor: null })
  })

  it('refuses limits outside 1..1000, malformed cursors and long searches', async () => {
    const org = await newOrg()
    const cases: [string, unknown[]][] = [
      ['limit=0', [{ loc: ['query', 'limit'], msg: expect.any(String), type: 'greater_than_equal' }]],
      ['limit=1001', [{ loc: ['query', 'limit'], msg: expect.any(String), type: 'less_than_equal' }]],
      ['limit=ten', [{ loc: ['query', 'limit'], msg: expect.any(String), type: 'int_parsing' }]],
      ['include_count=maybe', [{ loc: ['query', 'include_count'], msg: expect.any(String), type: 'bool_parsing' }]],
      [`search=${'a'.repeat(201)}`, [{ loc: ['query', 'search'], msg: expect.any(String), type: 'string_too_long' }]],
      ['cursor=not-a-cursor', [{ loc: ['query', 'cursor'], msg: 'Invalid cursor', type: 'value_error' }]],
      [
        `cursor=${Buffer.from('["x","y"]').toString('base64url')}`,
        [{ loc: ['query', 'cursor'], msg: 'Invalid cursor', type: 'value_error' }],
      ],
      // Parses as a JavaScript date but not as a PostgreSQL timestamp: must not reach the database.
      ...['1', '99999-01-01', 'Tue, 1 Jan 2030'].map((first): [string, unknown[]] => [
        `cursor=${Buffer.from(JSON.stringify([first, '01a1fe08-a3fc-7247-8ae0-4c5a21037cf9'])).toString('base64url')}`,
        [{ loc: ['query', 'cursor'], msg: 'Invalid cursor', type: 'value_error' }],
      ]),
    ]
    for (const [query, detail] of cases) {
      const res = await org.admin.api.get(`/api/v1/courses/?${query}`)
      expect(res.status, query).toBe(422)
      expect(res.body).toEqual({ detail })
    }
    for (const limit of [1, 1000]) expect((await org.admin.api.get(`/api/v1/courses/?limit=${limit}`)).status).toBe(200)
  })

  it('searches titles case-insensitively as a substring, wildcards taken literally, and counts the matches', async () => {
    const org = await newOrg()
    const titles = ['Fire Safety Basics', 'Advanced FIRE fighting', '100% Compliance', '100 Compliance', 'under_score', 'underXscore']
    const ids = Object.fromEntries(await Promise.all(titles.map(async (title) => [title, (await createCourse(org, { title })).id])))
    const search = async (term: string) => {
      const res = await org.crew.api.get(`/api/v1/courses/?include_count=true&search=${encodeURIComponent(term)}`)
      expect(res.status).toBe(200)
      expect(res.body.totalCount).toBe(res.body.items.length)
      return res.body.items.map((c: { id: string }) => c.id).sort()
    }
    const idsOf = (...names: string[]) => names.map((n) => ids[n]).sort()
    expect(await search('fire')).toEqual(idsOf('Fire Safety Basics', 'Advanced FIRE fighting'))
    expect(await search('sAfEtY bA')).toEqual(idsOf('Fire Safety Basics'))
    expect(await search('%')).toEqual(idsOf('100% Compliance'))
    expect(await search('_')).toEqual(idsOf('under_score'))
    expect(await search('nothing like it')).toEqual([])
    const paged = await org.crew.api.get('/api/v1/courses/?include_count=true&search=compliance&limit=1')
    expect(paged.body).toMatchObject({ totalCount: 2, hasMore: true })
    expect(paged.body.items).toHaveLength(1)
  })

  it('pages through a search without a count newest first, the same matches as the counted search', async () => {
    const org = await newOrg()
    const titles = ['Ballast Water 1', 'Fire Safety', 'BALLAST water 2', 'Ballast_3', 'Ballast%4', 'Galley hygiene']
    const made: string[] = []
    for (const title of titles) made.push((await createCourse(org, { title })).id)
    const counted = await org.crew.api.get('/api/v1/courses/?include_count=true&search=ballast&limit=100')
    const seen: string[] = []
    let path = '/api/v1/courses/?search=ballast&limit=1'
    for (;;) {
      const res = await org.crew.api.get(path)
      expect(res.status).toBe(200)
      expect(res.body.totalCount).toBeNull()
      seen.push(...res.body.items.map((c: { id: string }) => c.id))
      if (!res.body.hasMore) break
      path = `/api/v1/courses/?search=ballast&limit=1&cursor=${encodeURIComponent(res.body.nextCursor)}`
    }
    expect(seen).toEqual([made[4], made[3], made[2], made[0]])
    expect(counted.body.items.map((c: { id: string }) => c.id)).toEqual(seen)
    const wildcard = await org.crew.api.get('/api/v1/courses/?search=_3')
    expect(wildcard.body.items.map((c: { id: string }) => c.id)).toEqual([made[3]])
  })
  it(`searches past the newest ${SEARCH_WINDOW} courses: a rare term beyond them, and pages that cross them`, async () => {
    const org = await newOrg()
    // Every tenth course is a "Ballast" course; the oldest, alone, a "Rare Mooring" one; created a second apart.
    const count = SEARCH_WINDOW * 2 + 500
    const start = Date.parse('2026-01-01T00:00:00Z')
    const rows = Array.from({ length: count }, (_, i) => ({
      id: uuidv7(),
      organization_id: org.id,
      title: i === 0 ? 'Rare Mooring drill' : i % 10 === 0 ? `BALLAST water ${i}` : `Galley ${i}`,
      s3_path: `courses/${i}`,
      launch_file: 'index.html',
      created_at: new Date(start + i * 1000),
    }))
    for (let i = 0; i < count; i += 500) await t.database.db.insertInto('courses').values(rows.slice(i, i + 500)).execute()
    const newestFirst = (match: (title: string) => boolean) => rows.filter((row) => match(row.title)).map((row) => row.id).reverse()
    const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((c) => c.id)

    const rare = await org.crew.api.get('/api/v1/courses/?search=mooring')
    expect(ids(rare)).toEqual([rows[0].id])
    const seen: string[] = []
    let path = '/api/v1/courses/?search=ballast&limit=100'
    for (;;) {
      const res = await org.crew.api.get(path)
      expect(res.status).toBe(200)
      seen.push(...ids(res))
      if (!res.body.hasMore) break
      path = `/api/v1/courses/?search=ballast&limit=100&cursor=${encodeURIComponent(res.body.nextCursor)}`
    }
    expect(seen).toEqual(newestFirst((title) => title.startsWith('BALLAST')))
  })
})
