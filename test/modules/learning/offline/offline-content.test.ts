import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildContentApp } from '../../../../src/content-app.js'
import type { App } from '../../../../src/modules/types.js'
import { buildTestApp, type TestApp } from '../../../app.js'

// DECISIONS §16 with §13.3 (launch-15): the content origin serves its service worker and the download host the
// console frames; the host answers the console's origin only, and neither is served where the user's token lives.

let t: TestApp
let content: App
beforeAll(async () => {
  t = await buildTestApp()
  content = await buildContentApp({ config: t.config, logger: false })
})
afterAll(async () => {
  await content.close()
  await t.app.close()
})

describe("the content origin's offline pieces", () => {
  it('serves the service worker at its root (so it controls every package path and the player), never cached by HTTP', async () => {
    const res = await content.inject({ url: '/offline-sw.js' })
    expect(res.statusCode).toBe(200)
    expect(res.headers).toMatchObject({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' })
    expect(res.body).toContain("addEventListener('fetch'")
  })

  it("names the host script's digest in the worker, so a new host makes a new worker that keeps it", async () => {
    const worker = (await content.inject({ url: '/offline-sw.js' })).body
    const host = (await content.inject({ url: '/offline/host.js' })).body
    expect(worker.split('\n', 1)[0]).toBe(`// host ${createHash('sha256').update(host).digest('hex').slice(0, 16)}`)
  })

  it("serves the download host with the console's origin, the only one it answers, and its script as a file", async () => {
    const page = await content.inject({ url: '/offline/host' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.body).toContain(`data-console="${new URL(t.config.publicUrl).origin}"`)
    expect(page.body).toContain('<script src="/offline/host.js" defer></script>')
    expect(page.headers['content-security-policy']).toContain(new URL(t.config.publicUrl).origin)
    const script = await content.inject({ url: '/offline/host.js' })
    expect([script.statusCode, script.headers['cache-control']]).toEqual([200, 'no-cache'])
    expect(script.body).toContain('event.origin !== consoleOrigin')
  })

  it("is not served on the API's origin, and the console may frame the content origin and nothing else", async () => {
    for (const url of ['/offline-sw.js', '/offline/host', '/offline/host.js']) expect((await t.app.inject({ url })).statusCode).toBe(404)
    const csp = String((await t.app.inject({ url: '/console/me/training' })).headers['content-security-policy'])
    expect(
      csp
        .split('; ')
        .find((part) => part.startsWith('frame-src '))
        ?.split(' ')
        .slice(1),
    ).toEqual(["'self'", t.config.contentOrigin])
  })
})
