import { randomBytes } from 'node:crypto'
import { ListObjectsV2Command } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildTestApp, privateDatabase, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { cmi5Xml, importPackage, zipOf } from '../../../fixtures/packages.js'
import { startS3, type TestS3 } from '../../../s3.js'
import { corruptDeflate, lieAboutSize } from './hostile-zips.js'

// The S3 store's write: an entry that fails mid-upload ends the request and fails the import, never the process.
let s3: TestS3
let own: Awaited<ReturnType<typeof privateDatabase>>
let t: TestApp
let org: TestOrg
beforeAll(async () => {
  s3 = await startS3()
  own = await privateDatabase()
  t = await buildTestApp(
    { ...s3.env, RUN_JOBS: '1' },
    { database: own.database, jobs: { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 } },
  )
  org = await createOrg(t.app, t.database.db)
})
afterAll(async () => {
  await t.app.close()
  await own.dispose()
  await s3.close()
})

const NOISE = randomBytes(512 * 1024)
const LESSON = '<p>A lesson on fire safety, long enough to be deflated. '.repeat(40)
const PACKAGE = () => zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'index.html' }]), 'index.html': LESSON, 'noise.bin': NOISE })
const stored = async (prefix: string) =>
  (await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }))).Contents?.map((object) => object.Key) ?? []

it('fails on corrupt deflate data and on a size that lies, naming the entry, with nothing left in the bucket', async () => {
  for (const [zip, code, path] of [
    [corruptDeflate(await PACKAGE(), 'noise.bin'), 'entry_corrupt', 'noise.bin'],
    [lieAboutSize(await PACKAGE(), 'noise.bin', 1000), 'entry_size_mismatch', 'noise.bin'],
  ] as const) {
    const job = await importPackage(t.app, org.admin.api, zip)
    expect(job).toMatchObject({ status: 'failed', errors: [{ code, message: expect.any(String), path }] })
    expect(await stored(`${org.id}/packages/${job.id}/`)).toEqual([])
  }
  const job = await importPackage(t.app, org.admin.api, await PACKAGE())
  expect(job.status).toBe('complete')
  expect((await stored(`${org.id}/packages/${job.id}/`)).sort()).toEqual(
    ['cmi5.xml', 'index.html', 'noise.bin'].map((name) => `${org.id}/packages/${job.id}/${name}`),
  )
})
