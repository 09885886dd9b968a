import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enroll } from '../../../fixtures/registrations.js'
import { buildTestApp, privateDatabase, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { cmi5Xml, fixturePackage, importPackage, uploadPackage, zipOf } from '../../../fixtures/packages.js'

// The import runs on the job queue: the file's own database, so that its workers see only its rows.
let own: Awaited<ReturnType<typeof privateDatabase>>
let t: TestApp
let org: TestOrg
beforeAll(async () => {
  own = await privateDatabase()
  t = await buildTestApp({ RUN_JOBS: '1' }, { database: own.database, jobs: { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 } })
  org = await createOrg(t.app, t.database.db)
})
afterAll(async () => {
  await t.app.close()
  await own.dispose()
})

const storedUnder = async (prefix: string) =>
  (await readdir(join(t.config.dataDir, 'uploads', prefix), { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(join(t.config.dataDir, 'uploads', prefix).length + 1))
    .sort()

describe('importing a cmi5 package', () => {
  it('imports the multi-AU fixture (eight AUs at the root) as a new course with its structure, files and event', async () => {
    const job = await importPackage(t.app, org.admin.api, await fixturePackage('multi_au_framed'))
    expect(job).toEqual({
      id: expect.any(String),
      status: 'complete',
      standard: 'cmi5',
      courseId: expect.any(String),
      errors: [],
      createdAt: expect.any(String),
      finishedAt: expect.any(String),
    })
    const course = await org.admin.api.get(`/api/v1/learn/courses/${job.courseId}`)
    expect(course.body).toMatchObject({
      title: 'Introduction to Geology - Multi AU at Root',
      s3_path: `${org.id}/packages/${job.id}/`,
      launch_file: 'index.html?pages=1&complete=launch',
    })
    const structure = await org.crew.api.get(`/api/v1/learn/courses/${job.courseId}/structure`)
    expect(structure.status).toBe(200)
    expect(structure.body.standard).toBe('cmi5')
    expect(structure.body.aus).toHaveLength(8)
    expect(structure.body.aus[1]).toEqual({
      index: 1,
      id: 'https://w3id.org/xapi/cmi5/catapult/lts/course/geology-intro-multi-au-framed/2',
      title: 'Geological Materials',
      url: 'index.html?pages=2&complete=launch',
      moveOn: 'CompletedOrPassed',
      masteryScore: null,
      launchMethod: 'AnyWindow',
    })
    const stored = await storedUnder(`${org.id}/packages/${job.id}`)
    expect(stored).toContain('cmi5.xml')
    expect(stored).toContain('index.html')
    const events = await t.database.db
      .selectFrom('events')
      .select(['type', 'target_id', 'actor_user_id'])
      .where('organization_id', '=', org.id)
      .where('target_id', 'in', [job.id, job.courseId])
      .orderBy('id')
      .execute()
    expect(events).toEqual([
      { type: 'course.created', target_id: job.courseId, actor_user_id: org.admin.id },
      { type: 'course_import.completed', target_id: job.id, actor_user_id: org.admin.id },
    ])
  })

  it('reads the mastery score of the one-AU fixture', async () => {
    const job = await importPackage(t.app, org.admin.api, await fixturePackage('masteryscore_responsive'))
    expect(job.status).toBe('complete')
    const structure = await org.admin.api.get(`/api/v1/learn/courses/${job.courseId}/structure`)
    expect(structure.body.aus).toHaveLength(1)
    expect(structure.body.aus[0]).toMatchObject({ moveOn: 'CompletedOrPassed', masteryScore: 0.3, launchMethod: 'OwnWindow' })
  })

  it('replaces the package of an existing course and keeps the course id', async () => {
    const first = await importPackage(t.app, org.admin.api, await zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'a.html' }]), 'a.html': '<p>a' }))
    const second = await importPackage(
      t.app,
      org.admin.api,
      await zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'b.html' }, { url: 'c.html', attributes: 'moveOn="Passed" masteryScore="0.7"' }]), 'b.html': 'b', 'c.html': 'c' }),
      { courseId: first.courseId },
    )
    expect(second).toMatchObject({ status: 'complete', courseId: first.courseId })
    const structure = await org.admin.api.get(`/api/v1/learn/courses/${first.courseId}/structure`)
    expect(structure.body.aus.map((au: { url: string }) => au.url)).toEqual(['b.html', 'c.html'])
    expect(structure.body.aus[1]).toMatchObject({ moveOn: 'Passed', masteryScore: 0.7 })
    const row = await t.database.db.selectFrom('courses').selectAll().where('id', '=', first.courseId).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ package_id: second.id, s3_path: `${org.id}/packages/${second.id}/`, launch_file: 'b.html' })
  })

  it('imports a cmi5.xml alone whose AU URLs are absolute', async () => {
    const xml = cmi5Xml([{ url: 'https://content.example.com/fire/1.html' }, { url: 'https://content.example.com/fire/2.html' }])
    const job = await importPackage(t.app, org.admin.api, Buffer.from(xml), { mime: 'text/xml' })
    expect(job).toMatchObject({ status: 'complete', standard: 'cmi5', errors: [] })
    const structure = await org.admin.api.get(`/api/v1/learn/courses/${job.courseId}/structure`)
    expect(structure.body.aus.map((au: { url: string }) => au.url)).toEqual([
      'https://content.example.com/fire/1.html',
      'https://content.example.com/fire/2.html',
    ])
  })

  it('imports a zip64 archive', async () => {
    const zip = await zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'index.html' }]), 'index.html': '<p>hi' }, { forceZip64Format: true })
    expect((await importPackage(t.app, org.admin.api, zip)).status).toBe('complete')
  })

  it('imports more than 1000 AUs (one statement for all of them)', async () => {
    const aus = Array.from({ length: 1001 }, (_, n) => ({ url: `https://content.example.com/au/${n}.html` }))
    const job = await importPackage(t.app, org.admin.api, Buffer.from(cmi5Xml(aus)), { mime: 'text/xml' })
    expect(job.status).toBe('complete')
    const structure = await org.admin.api.get(`/api/v1/learn/courses/${job.courseId}/structure`)
    expect(structure.body.aus).toHaveLength(1001)
    expect(structure.body.aus[1000].index).toBe(1000)
  })
})

describe('access', () => {
  it('lets only admins import; other organizations see neither the job nor the structure', async () => {
    const uploadId = await uploadPackage(t.app, org.admin.api, await zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'a.html' }]), 'a.html': 'a' }))
    for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
      expect((await user.api.post('/api/v1/learn/course-imports', { uploadId })).status).toBe(403)
    }
    const job = await importPackage(t.app, org.admin.api, await zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'a.html' }]), 'a.html': 'a' }))
    const other = await createOrg(t.app, t.database.db)
    expect((await other.admin.api.get(`/api/v1/learn/course-imports/${job.id}`)).status).toBe(404)
    expect((await other.admin.api.get(`/api/v1/learn/courses/${job.courseId}/structure`)).status).toBe(404)
    expect((await other.admin.api.post('/api/v1/learn/course-imports', { uploadId })).body.detail).toEqual([
      { loc: ['body', 'uploadId'], msg: 'Not a ready upload of kind course_package', type: 'value_error' },
    ])
  })

  it('has no structure for a course created as a pointer', async () => {
    const course = await org.admin.api.post('/api/v1/learn/courses/', {
      organization_id: org.id,
      s3_path: 's3://bucket/course',
      launch_file: 'index.html',
      title: 'Pointer course',
    })
    expect(course.status).toBe(201)
    const res = await org.admin.api.get(`/api/v1/learn/courses/${course.body.id}/structure`)
    expect(res).toMatchObject({ status: 404, body: { detail: 'Course structure not found' } })
  })
})

describe('results of a packaged course', () => {
  it('come from sessions only: the attempts endpoint answers 409, and a pointer course still takes attempts', async () => {
    const job = await importPackage(t.app, org.admin.api, await zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'a.html' }]), 'a.html': 'a' }))
    const packaged = await enroll(t.database.db, org.id, org.crew.id, { courseId: job.courseId })
    const attempt = { attemptId: uuidv7(), passed: true, score_percent: 100 }
    for (const user of [org.crew, org.admin]) {
      const res = await user.api.post(`/api/v1/learn/registrations/${packaged.registrationId}/attempts`, attempt)
      expect(res).toMatchObject({ status: 409, body: { detail: 'This course records its results from its sessions' } })
    }
    const row = await t.database.db.selectFrom('registrations').selectAll().where('id', '=', packaged.registrationId).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'not_started', attempt_count: 0 })
    const other = await createOrg(t.app, t.database.db)
    expect((await other.admin.api.post(`/api/v1/learn/registrations/${packaged.registrationId}/attempts`, attempt)).status).toBe(404)
    const pointer = await enroll(t.database.db, org.id, org.crew.id)
    expect((await org.crew.api.post(`/api/v1/learn/registrations/${pointer.registrationId}/attempts`, attempt)).status).toBe(201)
  })
})
