import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, privateDatabase, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { cmi5Xml, importEnd, importPackage, uploadPackage, zipOf } from '../../../fixtures/packages.js'
import { ControlledStorage, closed } from './controlled-storage.js'

// DECISIONS §13.7: outages rerun an import at most 3 times; an admin cancels a running import, and its work stops.
const control = new ControlledStorage()
let own: Awaited<ReturnType<typeof privateDatabase>>
let t: TestApp
beforeAll(async () => {
  own = await privateDatabase()
  t = await buildTestApp(
    { RUN_JOBS: '1' },
    {
      database: own.database,
      jobs: { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1, retryDelaySeconds: 1 },
      storage: control.storage,
    },
  )
})
afterAll(async () => {
  await t.app.close()
  await own.dispose()
})

const PACKAGE = () => zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'index.html' }]), 'index.html': '<p>lesson</p>' })
const IMPORTS = '/api/v1/learn/course-imports'

describe('an outage', () => {
  it('reruns the import 3 times, then fails it with import_unavailable', async () => {
    const org = await createOrg(t.app, t.database.db)
    control.failWritesUnder = `${org.id}/packages/`
    try {
      const job = await importPackage(t.app, org.admin.api, await PACKAGE())
      expect(job).toMatchObject({ status: 'failed', courseId: null, errors: [{ code: 'import_unavailable', message: expect.any(String), path: '' }] })
      // The first run and 3 reruns, each stopped at its first file.
      expect(control.failedWrites).toBe(4)
      const row = await t.database.db.selectFrom('course_imports').select('attempts').where('id', '=', job.id).executeTakeFirstOrThrow()
      expect(row.attempts).toBe(4)
    } finally {
      control.failWritesUnder = null
    }
    const again = await importPackage(t.app, org.admin.api, await PACKAGE())
    expect(again.status).toBe('complete')
  })
})

describe('cancelling', () => {
  let org: TestOrg
  beforeAll(async () => {
    org = await createOrg(t.app, t.database.db)
  })

  it('stops the running import: 200 with the job failed as cancelled, its streams let go, nothing written', async () => {
    const uploadId = await uploadPackage(t.app, org.admin.api, await PACKAGE())
    control.hangReadsUnder = `${org.id}/`
    const hangs = control.readHangs()
    let importId: string
    try {
      const started = await org.admin.api.post(IMPORTS, { uploadId })
      expect(started.status).toBe(202)
      importId = started.body.id
      const stream = await hangs
      for (const user of [org.officeAdmin, org.crew]) expect((await user.api.delete(`${IMPORTS}/${importId}`)).status).toBe(403)
      const other = await createOrg(t.app, t.database.db)
      expect((await other.admin.api.delete(`${IMPORTS}/${importId}`)).status).toBe(404)
      const cancelled = await org.admin.api.delete(`${IMPORTS}/${importId}`)
      expect(cancelled.status).toBe(200)
      expect(cancelled.body).toMatchObject({
        id: importId,
        status: 'failed',
        courseId: null,
        errors: [{ code: 'cancelled', message: 'The import was cancelled', path: '' }],
        finishedAt: expect.any(String),
      })
      await closed(stream)
    } finally {
      control.hangReadsUnder = null
    }
    expect(await importEnd(org.admin.api, importId)).toMatchObject({ status: 'failed', errors: [{ code: 'cancelled' }] })
    expect(await readdir(join(t.config.dataDir, 'uploads', org.id, 'packages', importId)).catch(() => [])).toEqual([])
    const events = await t.database.db.selectFrom('events').select(['type', 'actor_user_id']).where('target_id', '=', importId).execute()
    expect(events).toEqual([{ type: 'course_import.failed', actor_user_id: org.admin.id }])
    // The queue moved on: another organization's import completes.
    const other = await createOrg(t.app, t.database.db)
    expect((await importPackage(t.app, other.admin.api, await PACKAGE())).status).toBe('complete')
  })

  it('refuses to cancel an import that has ended (409)', async () => {
    const job = await importPackage(t.app, org.admin.api, await PACKAGE())
    expect(job.status).toBe('complete')
    const res = await org.admin.api.delete(`${IMPORTS}/${job.id}`)
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ detail: 'The import has already ended' })
    expect((await org.admin.api.get(`${IMPORTS}/${job.id}`)).body.status).toBe('complete')
  })
})
