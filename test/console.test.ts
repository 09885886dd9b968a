import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerConsole } from '../src/lib/console.js'
import { registerSecurityHeaders } from '../src/lib/security-headers.js'
import { s3Storage } from '../src/lib/storage-s3.js'
import { buildTestApp, useTestApp } from './app.js'
import { S3RVER_CREDENTIALS, startS3 } from './s3.js'

// The console's files as the service serves them, from a stand-in build (the real one is made by
// `npm run build:console` and tested in a browser by test-browser/).

const INDEX = '<!doctype html><title>console</title><script type="module" src="/console/assets/app-1a2b.js"></script>'
const SCRIPT = 'console.log("console")'

async function consoleApp(root: string, fileOrigin: string | null = null): Promise<FastifyInstance> {
  const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } })
  await registerSecurityHeaders(app)
  await registerConsole(app, { root, fileOrigin })
  return app
}

/** The sources one directive of a policy allows. */
const sources = (csp: string, directive: string) =>
  csp
    .split('; ')
    .find((part) => part.startsWith(`${directive} `))
    ?.split(' ')
    .slice(1)

function builtConsole(): string {
  const root = mkdtempSync(join(tmpdir(), 'seaworthy-console-'))
  mkdirSync(join(root, 'assets'))
  writeFileSync(join(root, 'index.html'), INDEX)
  writeFileSync(join(root, 'assets', 'app-1a2b.js'), SCRIPT)
  return root
}

describe('the console', () => {
  let built: FastifyInstance
  let unbuilt: FastifyInstance
  beforeAll(async () => {
    built = await consoleApp(builtConsole())
    unbuilt = await consoleApp(mkdtempSync(join(tmpdir(), 'seaworthy-console-empty-')))
  })
  afterAll(async () => {
    await built.close()
    await unbuilt.close()
  })

  it("leads the service's root to the console", async () => {
    const reply = await built.inject({ url: '/' })
    expect([reply.statusCode, reply.headers.location]).toEqual([302, '/console/'])
  })

  it('serves index.html for /console and every screen under it, under its own CSP', async () => {
    for (const url of ['/console', '/console/', '/console/review', '/console/crew/0190a4a0-0000-7000-8000-000000000001']) {
      const reply = await built.inject({ url })
      expect([url, reply.statusCode, reply.body]).toEqual([url, 200, INDEX])
      expect(reply.headers['content-type']).toBe('text/html; charset=utf-8')
      const csp = String(reply.headers['content-security-policy'])
      expect(csp).toContain("script-src 'self';")
      expect(csp).toContain("style-src 'self' 'unsafe-inline'")
      expect(csp).toContain("frame-ancestors 'none'")
      expect(reply.headers['x-frame-options']).toBe('DENY')
    }
  })

  it('serves the hashed assets as immutable and a missing asset as a 404, never as the page', async () => {
    const asset = await built.inject({ url: '/console/assets/app-1a2b.js' })
    expect([asset.statusCode, asset.body, asset.headers['cache-control']]).toEqual([200, SCRIPT, 'public, max-age=31536000, immutable'])
    expect(asset.headers['content-type']).toMatch(/^(text|application)\/javascript/)
    const missing = await built.inject({ url: '/console/assets/app-old.js' })
    expect(missing.statusCode).toBe(404)
    expect(missing.body).not.toContain('<!doctype html>')
  })

  it('says how to build it when it is not built', async () => {
    const reply = await unbuilt.inject({ url: '/console/review' })
    expect([reply.statusCode, reply.body]).toEqual([404, 'The console is not built: run `npm run build:console`.'])
  })

  it('lets the review previews load files from the storage origin when that is not the service (S3)', async () => {
    const app = await consoleApp(builtConsole(), 'https://crew-files.s3.eu-west-1.amazonaws.com')
    const csp = String((await app.inject({ url: '/console/review' })).headers['content-security-policy'])
    await app.close()
    expect(sources(csp, 'img-src')).toEqual(["'self'", 'data:', 'blob:', 'https://crew-files.s3.eu-west-1.amazonaws.com'])
    expect(sources(csp, 'connect-src')).toEqual(["'self'", 'https://crew-files.s3.eu-west-1.amazonaws.com'])
    expect(sources(csp, 'script-src')).toEqual(["'self'"])
    const own = String((await built.inject({ url: '/console/review' })).headers['content-security-policy'])
    expect([sources(own, 'img-src'), sources(own, 'connect-src')]).toEqual([["'self'", 'data:', 'blob:'], ["'self'"]])
  })

  it('takes the storage origin from where S3 links point: the endpoint path-style, the bucket host otherwise', async () => {
    const bucket = { bucket: 'crew-files', region: 'eu-west-1', credentials: S3RVER_CREDENTIALS }
    const origin = (endpoint: string | undefined, forcePathStyle: boolean) =>
      s3Storage({ ...bucket, endpoint, forcePathStyle }).fileOrigin()
    expect(await origin('http://127.0.0.1:9000', true)).toBe('http://127.0.0.1:9000')
    expect(await origin(undefined, false)).toBe('https://crew-files.s3.eu-west-1.amazonaws.com')
    expect(await origin('https://storage.example.com', false)).toBe('https://crew-files.storage.example.com')
  })

  it('in a service on S3, allows the bucket in its policy', async () => {
    const s3 = await startS3()
    const t = await buildTestApp(s3.env)
    try {
      const csp = String((await t.app.inject({ url: '/console/review' })).headers['content-security-policy'])
      expect(sources(csp, 'img-src')).toContain(s3.endpoint)
      expect(sources(csp, 'connect-src')).toContain(s3.endpoint)
    } finally {
      await t.app.close()
      await s3.close()
    }
  })

  describe('in the service', () => {
    const t = useTestApp()

    it('is left out of the OpenAPI document and keeps the API under the strict policy', async () => {
      const document = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown> }
      expect(Object.keys(document.paths).filter((path) => path.startsWith('/console'))).toEqual([])
      const api = await t.app.inject({ url: '/api/v1/users/me' })
      expect(api.headers['content-security-policy']).toContain("style-src 'self'")
      expect(api.headers['content-security-policy']).not.toContain('unsafe-inline')
    })
  })
})
