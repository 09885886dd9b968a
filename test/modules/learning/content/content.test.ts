import { readFile } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../../src/config.js'
import { buildContentApp } from '../../../../src/content-app.js'
import { type ContentGrant, contentPaths } from '../../../../src/modules/learning/content/content.paths.js'
import type { App } from '../../../../src/modules/types.js'
import { buildTestApp, privateDatabase, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { fixturePackage, importPackage } from '../../../fixtures/packages.js'

let own: Awaited<ReturnType<typeof privateDatabase>>
let t: TestApp
let content: App
let org: TestOrg
let packageId: string
beforeAll(async () => {
  own = await privateDatabase()
  t = await buildTestApp(
    { RUN_JOBS: '1' },
    { database: own.database, jobs: { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 } },
  )
  content = await buildContentApp({ config: t.config, logger: false })
  org = await createOrg(t.app, t.database.db)
  packageId = (await importPackage(t.app, org.admin.api, await fixturePackage('masteryscore_responsive'))).id
})
afterAll(async () => {
  await content.close()
  await t.app.close()
  await own.dispose()
})

const grant = (overrides: Partial<ContentGrant> = {}): ContentGrant => ({
  orgId: org.id,
  packageId,
  sessionId: '0190a000-0000-7000-8000-00000000c0de',
  expiresAt: new Date(Date.now() + 3600_000),
  ...overrides,
})
const get = async (url: string, headers: Record<string, string> = {}) => {
  const { pathname, search, origin } = new URL(url)
  expect(origin).toBe(t.config.contentOrigin)
  return content.inject({ method: 'GET', url: pathname + search, headers })
}
const stored = (path: string) => readFile(join(t.config.dataDir, 'uploads', org.id, 'packages', packageId, path))

describe('the content origin', () => {
  it('is its own origin: PORT + 1 by default, never the API', () => {
    expect(t.config.contentOrigin).not.toBe(new URL(t.config.publicUrl).origin)
    expect(contentPaths(t.config).url(grant(), 'index.html')).toMatch(
      new RegExp(`^${t.config.contentOrigin}/content/[\\w-]+\\.[\\w-]+/index\\.html$`),
    )
  })

  it('serves a package file inside a session path, with its media type and immutable caching', async () => {
    const res = await get(contentPaths(t.config).url(grant(), 'index.html?pages=1'))
    expect(res.statusCode).toBe(200)
    expect(res.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'private, max-age=31536000, immutable',
      etag: `"${packageId}"`,
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
      'content-security-policy': `frame-ancestors 'self' ${new URL(t.config.publicUrl).origin}`,
    })
    expect(res.rawPayload).toEqual(await stored('index.html'))
    for (const [path, type] of [
      ['js/cmi5.min.js', 'text/javascript; charset=utf-8'],
      ['style/base.css', 'text/css; charset=utf-8'],
      ['img/fault_types.svg', 'image/svg+xml'],
      ['video/mountains_31175.mp4', 'video/mp4'],
    ]) {
      expect((await get(contentPaths(t.config).url(grant(), path))).headers['content-type']).toBe(type)
    }
    const again = await get(contentPaths(t.config).url(grant(), 'index.html'), { 'if-none-match': `"${packageId}"` })
    expect(again.statusCode).toBe(304)
  })

  it('answers byte ranges of a video, and 416 past its end', async () => {
    const url = contentPaths(t.config).url(grant(), 'video/mountains_31175.mp4')
    const video = await stored('video/mountains_31175.mp4')
    expect(video.length).toBe(2636971)
    const res = await get(url, { range: 'bytes=1000-1999' })
    expect(res.statusCode).toBe(206)
    expect(res.headers).toMatchObject({ 'content-range': 'bytes 1000-1999/2636971', 'content-length': '1000' })
    expect(res.rawPayload).toEqual(video.subarray(1000, 2000))
    const tail = await get(url, { range: 'bytes=-100' })
    expect(tail.headers['content-range']).toBe('bytes 2636871-2636970/2636971')
    expect(tail.rawPayload).toEqual(video.subarray(-100))
    const past = await get(url, { range: 'bytes=3000000-' })
    expect(past.statusCode).toBe(416)
    expect(past.headers['content-range']).toBe('bytes */2636971')
  })

  it('resumes with If-Range: a range of the version named, else the whole file (the device starts over)', async () => {
    const url = contentPaths(t.config).url(grant(), 'video/mountains_31175.mp4')
    const video = await stored('video/mountains_31175.mp4')
    const resumed = await get(url, { range: 'bytes=2000000-', 'if-range': `"${packageId}"` })
    expect(resumed.statusCode).toBe(206)
    expect(resumed.headers['content-range']).toBe('bytes 2000000-2636970/2636971')
    expect(resumed.rawPayload).toEqual(video.subarray(2_000_000))
    const changed = await get(url, { range: 'bytes=2000000-', 'if-range': '"another-version"' })
    expect(changed.statusCode).toBe(200)
    expect(changed.headers).toMatchObject({ 'content-length': '2636971', etag: `"${packageId}"` })
    expect(changed.rawPayload).toEqual(video)
  })

  it('refuses expired, forged and foreign session paths, and paths out of the package', async () => {
    const paths = contentPaths(t.config)
    const expired = await get(paths.url(grant({ expiresAt: new Date(Date.now() - 1000) }), 'index.html'))
    expect(expired.statusCode).toBe(403)
    expect(expired.json()).toEqual({ detail: 'This launch session has expired; launch the course again' })
    const url = paths.url(grant(), 'index.html')
    const forged = url.replace(/\/content\/([\w-]+)\./, (_, payload: string) => `/content/${payload.slice(0, -2)}AA.`)
    expect((await get(forged)).statusCode).toBe(404)
    // Signed by another service (another secret): not ours.
    const foreign = contentPaths({ ...t.config, jwtSecret: 'another-secret-another-secret-0123456789' }).url(grant(), 'index.html')
    expect((await get(foreign)).statusCode).toBe(404)
    // `..`, even encoded, is resolved by the router before the path is matched: never above the session path.
    const session = new URL(paths.url(grant(), 'js')).pathname.slice(0, -'/js'.length)
    expect((await content.inject({ method: 'GET', url: `${session}/js/%2e%2e/index.html` })).rawPayload).toEqual(await stored('index.html'))
    expect(
      (await content.inject({ method: 'GET', url: `${session}/%2e%2e/%2e%2e/${org.id}/packages/${packageId}/index.html` })).statusCode,
    ).toBe(404)
    expect((await get(paths.url(grant(), 'missing.html'))).statusCode).toBe(404)
    expect((await get(paths.url(grant({ orgId: (await createOrg(t.app, t.database.db)).id }), 'index.html'))).statusCode).toBe(404)
  })

  it('answers 404 for a folder, a dot segment or an empty one, never 500', async () => {
    const session = new URL(contentPaths(t.config).url(grant(), 'js')).pathname.slice(0, -'/js'.length)
    for (const path of ['js', 'js/', '.', './', 'js/.', '%2e', 'js/%2E', 'js//cmi5.min.js']) {
      const res = await content.inject({ method: 'GET', url: `${session}/${path}` })
      expect([path, res.statusCode, res.json()]).toEqual([path, 404, { detail: 'File not found' }])
    }
    // Sent as is to a listening server (a client resolves `./` itself, as the test client does above).
    await content.listen({ port: 0, host: '127.0.0.1' })
    const { port } = content.server.address() as { port: number }
    for (const path of ['./index.html', 'js/./cmi5.min.js', 'js/%2e/cmi5.min.js', 'js/../index.html']) {
      const status = await new Promise<number | undefined>((resolve, reject) =>
        request({ host: '127.0.0.1', port, path: `${session}/${path}` }, (res) => resolve(res.resume().statusCode))
          .on('error', reject)
          .end(),
      )
      expect([path, status]).toEqual([path, 404])
    }
  })

  it('says at its root, in a sentence, what it is and where the console is', async () => {
    const reply = await content.inject({ url: '/' })
    expect([reply.statusCode, reply.headers['content-type']]).toEqual([200, 'text/plain; charset=utf-8'])
    expect(reply.body).toBe(
      `This is Seaworthy's content origin: it serves training courses to the people who launch them from the console at ${new URL('/console/', t.config.publicUrl)}, and nothing else.\n`,
    )
  })

  it('is not served by the API origin', async () => {
    const { pathname } = new URL(contentPaths(t.config).url(grant(), 'index.html'))
    expect((await t.app.inject({ method: 'GET', url: pathname })).statusCode).toBe(404)
  })
})

describe('configuration', () => {
  it('refuses a CONTENT_ORIGIN that is the API origin, and PORT 65535', () => {
    const env = { DATA_DIR: t.config.dataDir, SEAWORTHY_JWT_SECRET: 'x'.repeat(32) }
    expect(() => loadConfig({ ...env, PUBLIC_URL: 'https://crew.example.com/', CONTENT_ORIGIN: 'https://crew.example.com' })).toThrow(
      "Invalid configuration: CONTENT_ORIGIN must differ from PUBLIC_URL's origin (package scripts would reach signed-in users' tokens)",
    )
    expect(() => loadConfig({ ...env, PORT: '65535' })).toThrow('Invalid configuration: PORT 65535 leaves no PORT + 1 for package content')
    expect(loadConfig({ ...env, HOST: '0.0.0.0', PORT: '9000' })).toMatchObject({ contentOrigin: 'http://0.0.0.0:9001', contentPort: 9001 })
    expect(loadConfig({ ...env, CONTENT_ORIGIN: 'https://content.example.com/' }).contentOrigin).toBe('https://content.example.com')
  })
})
