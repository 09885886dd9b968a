import { Readable } from 'node:stream'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testConfig, testDatabase } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { startS3, type TestS3 } from '../../../s3.js'
import { type App, buildApp } from '../../../../src/app.js'
import { createStorage, type Storage } from '../../../../src/lib/storage.js'
import { PNG_3X2, pdfWithPages, postForm, STORES, startUpload, uploadFile } from '../../../fixtures/uploads.js'

setFlagsFromString('--expose-gc')
const gc: () => void = runInNewContext('gc')
const MiB = 1024 * 1024

/**
 * Watches the content reads of a storage: how many run at once, and how much the memory held (after a
 * collection) grows from the start of a read to its fullest point.
 */
function metered(storage: Storage) {
  const meter = { active: 0, mostActive: 0, baseline: 0, peak: 0 }
  const held = () => {
    gc()
    return process.memoryUsage().arrayBuffers
  }
  const sample = () => {
    meter.peak = Math.max(meter.peak, held())
  }
  const read = (key: string) => {
    const source = storage.read(key)
    async function* watched() {
      meter.mostActive = Math.max(meter.mostActive, ++meter.active)
      meter.baseline = held()
      let sinceSample = 0
      try {
        for await (const chunk of source) {
          sinceSample += chunk.length
          if (sinceSample >= MiB) {
            sample()
            sinceSample = 0
          }
          yield chunk
        }
        sample()
      } finally {
        meter.active--
      }
    }
    return Readable.from(watched())
  }
  const reset = () => Object.assign(meter, { mostActive: 0, baseline: 0, peak: 0 })
  return { storage: { ...storage, read }, meter, reset }
}

describe.each(STORES)('content inspection on %s storage', (storeName) => {
  let app: App
  let s3: TestS3 | null = null
  let org: TestOrg
  let watch: ReturnType<typeof metered>
  beforeAll(async () => {
    if (storeName === 's3') s3 = await startS3()
    const config = testConfig(s3?.env)
    const database = await testDatabase()
    watch = metered(createStorage(config))
    app = await buildApp({ config, database, storage: watch.storage, logger: false })
    await app.ready()
    org = await createOrg(app, database.db)
  })
  afterAll(async () => {
    await app.close()
    await s3?.close()
  })

  it('reads a 25 MiB image as a stream: the memory held stays far below its size', async () => {
    const big = Buffer.concat([PNG_3X2, Buffer.alloc(25 * MiB - PNG_3X2.length, 1)])
    const { uploadId, presignedPost } = await startUpload(org.crew.api, big.length, 'image/png')
    expect((await postForm(app, presignedPost.url, presignedPost.fields, big)).status).toBe(204)
    watch.reset()
    const finalized = await org.crew.api.post(`/api/v1/shared/uploads/${uploadId}/finalize`)
    expect(finalized.body).toMatchObject({ status: 'ready', sizeBytes: 25 * MiB, width: 3, height: 2 })
    expect(watch.meter.peak).toBeGreaterThan(0)
    expect(watch.meter.peak - watch.meter.baseline).toBeLessThan(4 * MiB)
  })

  it('reads one PDF at a time, however many are finalized at once', async () => {
    const pdfs = await Promise.all([1, 2, 3].map((pages) => pdfWithPages(pages)))
    watch.reset()
    const finalized = await Promise.all(pdfs.map((pdf) => uploadFile(app, org.crew.api, pdf, 'application/pdf')))
    expect(finalized.map((u) => u.finalized.body.pageCount)).toEqual([1, 2, 3])
    expect(watch.meter.mostActive).toBe(1)
  })
})
