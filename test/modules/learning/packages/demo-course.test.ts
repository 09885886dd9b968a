import { execFile } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { createStorage } from '../../../../src/lib/storage.js'
import { seedDemo } from '../../../../src/modules/crew/demo/demo.service.js'
import { seedDemoCourse } from '../../../../src/modules/learning/packages/demo-course.js'
import { PACKAGE_READERS } from '../../../../src/modules/learning/standards/index.js'
import { client, useTestApp } from '../../../app.js'

// The first start's course (issue 28 item 7): built from demo-course/ as the install's build does, imported
// through the import job's handler, and registered on the demo crew member's current assignment.

const t = useTestApp()

async function signIn(email: string, password: string) {
  const signedIn = await client(t.app).post('/api/v1/auth/token', { email, password })
  expect(signedIn.status).toBe(200)
  return client(t.app, signedIn.body.access_token)
}

describe('the demo course', () => {
  it('is imported on a first start and waits in the crew member’s training, ready to launch', async () => {
    const zip = join(await mkdtemp(join(tmpdir(), 'seaworthy-demo-course-')), 'demo-course.zip')
    await promisify(execFile)(process.execPath, ['scripts/build-demo-course.mjs', zip])
    const demo = await seedDemo(t.database.db)
    const deps = { db: t.database.db, storage: createStorage(t.config), config: t.config, log: pino({ level: 'silent' }), readers: PACKAGE_READERS }
    const courseId = await seedDemoCourse(deps, demo, zip)
    expect(courseId).not.toBeNull()

    const crewLogin = demo.logins.find((login) => login.role === 'crew')!
    const crew = await signIn(crewLogin.email, crewLogin.password)
    const structure = await crew.get(`/api/v1/learn/courses/${courseId}/structure`)
    expect(structure.body).toMatchObject({ standard: 'cmi5', aus: [{ index: 0, moveOn: 'CompletedAndPassed', masteryScore: 0.8, launchMethod: 'OwnWindow' }] })
    const registrations = (await crew.get('/api/v1/learn/registrations?limit=100')).body.items
    const registration = registrations.find((r: { course_id: string }) => r.course_id === courseId)
    expect(registration).toMatchObject({ status: 'not_started' })
    const launched = await crew.post(`/api/v1/learn/registrations/${registration.id}/launch`, {})
    expect(launched.status).toBe(201)
    expect(new URL(launched.body.url).pathname.endsWith('/index.html')).toBe(true)
  })

  it('is skipped when the install has no demo package', async () => {
    const demo = await seedDemo(t.database.db)
    const deps = { db: t.database.db, storage: createStorage(t.config), config: t.config, log: pino({ level: 'silent' }), readers: PACKAGE_READERS }
    expect(await seedDemoCourse(deps, demo, join(tmpdir(), 'no-such-demo-course.zip'))).toBeNull()
  })
})
