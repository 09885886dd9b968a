import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildTestApp, privateDatabase, type TestApp } from '../../../app.js'
import { createOrg } from '../../../factories.js'
import { cmi5Xml, importEnd, uploadPackage, zipOf } from '../../../fixtures/packages.js'
import { ControlledStorage, closed } from './controlled-storage.js'

// DECISIONS §13.7: an import running longer than COURSE_IMPORT_TIMEOUT_SECONDS fails, and its work stops.
const control = new ControlledStorage()
let own: Awaited<ReturnType<typeof privateDatabase>>
let t: TestApp
beforeAll(async () => {
  own = await privateDatabase()
  t = await buildTestApp(
    { RUN_JOBS: '1', COURSE_IMPORT_TIMEOUT_SECONDS: '1' },
    { database: own.database, jobs: { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 }, storage: control.storage },
  )
})
afterAll(async () => {
  await t.app.close()
  await own.dispose()
})

it('fails an import whose package never finishes arriving once it has run past the timeout', async () => {
  const org = await createOrg(t.app, t.database.db)
  const uploadId = await uploadPackage(
    t.app,
    org.admin.api,
    await zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'index.html' }]), 'index.html': 'x' }),
  )
  control.hangReadsUnder = `${org.id}/`
  try {
    const started = await org.admin.api.post('/api/v1/learn/course-imports', { uploadId })
    expect(started.status).toBe(202)
    const job = await importEnd(org.admin.api, started.body.id)
    expect(job).toMatchObject({
      status: 'failed',
      courseId: null,
      errors: [{ code: 'import_timeout', message: 'The import ran longer than 1 seconds', path: '' }],
    })
    // A job that starts after the second has passed never reads: only the reads it did start must be let go of.
    await Promise.all(control.hanging.map(closed))
  } finally {
    control.hangReadsUnder = null
  }
})
