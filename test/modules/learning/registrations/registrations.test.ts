import { beforeAll, describe, expect, it } from 'vitest'
import { client, useTestApp } from '../../../app.js'
import { createOrg, insertCourse, type TestOrg } from '../../../factories.js'
import { enroll, insertAssignment, insertShip } from '../../../fixtures/registrations.js'

const t = useTestApp()

const newOrg = () => createOrg(t.app, t.database.db)
const url = (id: string) => `/api/v1/learn/registrations/${id}`

async function registrationRow(id: string) {
  return t.database.db.selectFrom('registrations').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

describe('one registration', () => {
  it('has the snake_case shape, at both paths', async () => {
    const org = await newOrg()
    const { registrationId, assignmentId, courseId } = await enroll(t.database.db, org.id, org.crew.id)
    const row = await registrationRow(registrationId)
    const expected = {
      id: registrationId,
      assignment_id: assignmentId,
      course_id: courseId,
      status: 'not_started',
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      completed_at: null,
      score_percent: null,
      time_spent_seconds: 0,
      attempt_count: 0,
    }
    for (const path of [url(registrationId), `/api/v1/registrations/${registrationId}`, `/api/v1/registrations/${registrationId}/`]) {
      const res = await org.admin.api.get(path)
      expect(res.status).toBe(200)
      expect(res.body).toEqual(expected)
    }
  })

  it('adds user, course and ship names with expand=true', async () => {
    const org = await newOrg()
    const sailor = await org.addUser('crew', { firstName: 'Ada', lastName: 'Lovelace' })
    const shipId = await insertShip(t.database.db, org.id, 'MV Expand')
    const courseId = await insertCourse(t.database.db, org.id, 'Fire Safety')
    const { registrationId } = await enroll(t.database.db, org.id, sailor.id, { shipId, courseId })
    const names = { user_name: 'Ada Lovelace', course_title: 'Fire Safety', ship_name: 'MV Expand' }

    const one = await org.admin.api.get(`${url(registrationId)}?expand=true`)
    expect(one.status).toBe(200)
    expect(one.body).toEqual({ ...(await org.admin.api.get(url(registrationId))).body, ...names })
    const list = await sailor.api.get('/api/v1/learn/registrations?expand=1')
    expect(list.body.items).toEqual([one.body])
    const plain = await sailor.api.get('/api/v1/learn/registrations?expand=false')
    expect(Object.keys(plain.body.items[0])).not.toContain('user_name')
  })

  it('is a 404 for a missing id or another organization, and a 422 for a malformed id', async () => {
    const [org, other] = await Promise.all([newOrg(), newOrg()])
    const { registrationId } = await enroll(t.database.db, other.id, other.crew.id)
    expect((await org.admin.api.get(url(registrationId))).status).toBe(404)
    const missing = await org.admin.api.get(url('0190a000-0000-7000-8000-000000000000'))
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ detail: 'Registration not found' })
    const bad = await org.admin.api.get('/api/v1/registrations/nope?expand=maybe')
    expect(bad.status).toBe(422)
    expect(bad.body.detail).toEqual([
      { loc: ['path', 'registration_id'], msg: expect.any(String), type: 'uuid_parsing' },
      { loc: ['query', 'expand'], msg: expect.any(String), type: 'bool_parsing' },
    ])
  })
})

describe('who sees which registration', () => {
  let org: TestOrg
  let own: Record<'crew' | 'otherCrew' | 'officeEmployee', string>
  beforeAll(async () => {
    org = await newOrg()
    const otherCrew = await org.addUser('crew')
    const db = t.database.db
    own = {
      crew: (await enroll(db, org.id, org.crew.id)).registrationId,
      otherCrew: (await enroll(db, org.id, otherCrew.id)).registrationId,
      officeEmployee: (await enroll(db, org.id, org.officeEmployee.id)).registrationId,
    }
  })
  const ids = async (api: TestOrg['admin']['api']) => (await api.get('/api/v1/learn/registrations')).body.items.map((r: any) => r.id)

  it('admins and office admins see every registration of the organization', async () => {
    for (const user of [org.admin, org.officeAdmin]) {
      expect(await ids(user.api)).toEqual([own.officeEmployee, own.otherCrew, own.crew])
      for (const id of Object.values(own)) expect((await user.api.get(url(id))).status).toBe(200)
    }
  })

  it('office employees and crew see only their own, and a 404 for the others', async () => {
    for (const [user, mine] of [
      [org.officeEmployee, own.officeEmployee],
      [org.crew, own.crew],
    ] as const) {
      expect(await ids(user.api)).toEqual([mine])
      for (const id of Object.values(own)) {
        expect((await user.api.get(`/api/v1/registrations/${id}`)).status).toBe(id === mine ? 200 : 404)
      }
    }
  })
})

describe('the registration list', () => {
  it('pages newest first with the cursor envelope and filters', async () => {
    const org = await newOrg()
    const db = t.database.db
    const first = await enroll(db, org.id, org.crew.id)
    const second = await enroll(db, org.id, org.crew.id, { courseId: first.courseId })
    const third = await enroll(db, org.id, org.crew.id, { assignmentId: first.assignmentId })
    await db.updateTable('registrations').set({ status: 'passed' }).where('id', '=', second.registrationId).execute()

    const page1 = await org.admin.api.get('/api/v1/learn/registrations?limit=2&include_count=true')
    expect(page1.status).toBe(200)
    expect(page1.body).toEqual({
      items: [(await org.admin.api.get(url(third.registrationId))).body, (await org.admin.api.get(url(second.registrationId))).body],
      nextCursor: expect.any(String),
      hasMore: true,
      totalCount: 3,
    })
    const page2 = await org.admin.api.get(`/api/v1/learn/registrations?limit=2&include_count=true&cursor=${page1.body.nextCursor}`)
    expect(page2.body).toEqual({
      items: [(await org.admin.api.get(url(first.registrationId))).body],
      nextCursor: null,
      hasMore: false,
      totalCount: 3,
    })

    const filtered = async (query: string) => {
      const res = await org.admin.api.get(`/api/v1/learn/registrations?include_count=true&${query}`)
      return [res.body.items.map((r: any) => r.id), res.body.totalCount]
    }
    expect(await filtered(`course_id=${first.courseId}`)).toEqual([[second.registrationId, first.registrationId], 2])
    expect(await filtered(`assignment_id=${first.assignmentId}`)).toEqual([[third.registrationId, first.registrationId], 2])
    expect(await filtered('status=passed')).toEqual([[second.registrationId], 1])
    expect(await filtered(`status=failed&course_id=${first.courseId}`)).toEqual([[], 0])
    expect((await org.admin.api.get('/api/v1/learn/registrations')).body.totalCount).toBeNull()
  })

  it('searches course titles, user names and ship names', async () => {
    const org = await newOrg()
    const db = t.database.db
    const sailor = await org.addUser('crew', { firstName: 'Grace', lastName: 'Hopper' })
    const byCourse = await enroll(db, org.id, org.crew.id, { courseId: await insertCourse(db, org.id, 'Enclosed 100% Spaces') })
    const byUser = await enroll(db, org.id, sailor.id)
    const byShip = await enroll(db, org.id, org.crew.id, { shipId: await insertShip(db, org.id, 'MV Nordlys') })
    const search = async (text: string) =>
      (await org.admin.api.get(`/api/v1/learn/registrations?search=${encodeURIComponent(text)}`)).body.items.map((r: any) => r.id)
    expect(await search('100%')).toEqual([byCourse.registrationId])
    expect(await search('grace hop')).toEqual([byUser.registrationId])
    expect(await search('nordLYS')).toEqual([byShip.registrationId])
    expect(await search('_')).toEqual([])
  })

  it('rejects bad filters all at once', async () => {
    const org = await newOrg()
    const res = await org.admin.api.get('/api/v1/learn/registrations?status=done&course_id=1&limit=0&cursor=zzz')
    expect(res.status).toBe(422)
    expect(res.body.detail.map((d: any) => [d.loc, d.type])).toEqual([
      [['query', 'limit'], 'greater_than_equal'],
      [['query', 'course_id'], 'uuid_parsing'],
      [['query', 'status'], 'enum'],
    ])
    const cursor = await org.admin.api.get('/api/v1/learn/registrations?cursor=zzz')
    expect(cursor.status).toBe(422)
    expect(cursor.body.detail).toEqual([{ loc: ['query', 'cursor'], msg: 'Invalid cursor', type: 'value_error' }])
  })
})

describe('product gating and authentication', () => {
  it('needs the learn product and a token', async () => {
    const org = await createOrg(t.app, t.database.db, { products: ['crew'] })
    const shipId = await insertShip(t.database.db, org.id)
    const assignmentId = await insertAssignment(t.database.db, org.id, org.crew.id, shipId)
    const { registrationId } = await enroll(t.database.db, org.id, org.crew.id, { assignmentId })
    for (const path of ['/api/v1/learn/registrations', url(registrationId), `/api/v1/registrations/${registrationId}`]) {
      const res = await org.admin.api.get(path)
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ detail: expect.any(String) })
    }
    expect((await client(t.app).get('/api/v1/learn/registrations')).status).toBe(401)
  })
})
