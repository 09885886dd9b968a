import { describe, expect, it } from 'vitest'
import { client, useTestApp } from './app.js'
import { PASSWORD, useOrg } from './factories.js'

const t = useTestApp()
const org = useOrg(t)
// app.inject's peer is 127.0.0.1: trusted as the proxy here.
const proxied = useTestApp({ TRUST_PROXY: '127.0.0.1' })
const proxiedOrg = useOrg(proxied)

const CSP =
  "default-src 'self';base-uri 'self';connect-src 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'none';" +
  "img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self'"

function expectSecurityHeaders(headers: Record<string, unknown>) {
  expect(headers).toMatchObject({
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  })
  expect(headers['strict-transport-security']).toBeUndefined()
}

function expectNoStore(headers: Record<string, unknown>) {
  expect(headers['cache-control']).toBe('no-store')
  expect(headers.pragma).toBe('no-cache')
}

describe('security headers', () => {
  it('are on API answers, errors included, which are never cached', async () => {
    const ok = await org.crew.api.get('/api/v1/users/me')
    const unauthorized = await client(t.app).get('/api/v1/users/me')
    const notFound = await org.crew.api.get('/api/v1/shared/ships/00000000-0000-4000-8000-000000000000')
    const invalid = await org.admin.api.post('/api/v1/shared/ships', {})
    const unknown = await client(t.app).get('/api/v1/nothing-here')
    expect([ok, unauthorized, notFound, invalid, unknown].map((r) => r.status)).toEqual([200, 401, 404, 422, 404])
    for (const reply of [ok, unauthorized, notFound, invalid, unknown]) {
      expectSecurityHeaders(reply.headers)
      expectNoStore(reply.headers)
    }
  })

  it('make the token answer uncacheable', async () => {
    const user = await org.addUser('crew')
    const token = await client(t.app).post('/api/v1/auth/token', { email: user.email, password: PASSWORD })
    expect(token.status).toBe(200)
    expectSecurityHeaders(token.headers)
    expectNoStore(token.headers)
    const refused = await client(t.app).post('/api/v1/auth/token', { email: user.email, password: 'wrong password' })
    expect(refused.status).toBe(401)
    expectNoStore(refused.headers)
  })

  it('add HSTS only to a request that reached a trusted proxy over TLS', async () => {
    const overTls = await proxiedOrg.crew.api.get('/api/v1/users/me', { 'x-forwarded-proto': 'https' })
    expect(overTls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
    const health = await client(proxied.app).get('/healthz', { 'x-forwarded-proto': 'https' })
    expect(health.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
    const plain = await proxiedOrg.crew.api.get('/api/v1/users/me', { 'x-forwarded-proto': 'http' })
    expect(plain.headers['strict-transport-security']).toBeUndefined()
    // Without TRUST_PROXY the header is anyone's to send: no HSTS on its word.
    const untrusted = await org.crew.api.get('/api/v1/users/me', { 'x-forwarded-proto': 'https' })
    expect(untrusted.headers['strict-transport-security']).toBeUndefined()
  })

  it('let /docs load: every asset it names is same-origin, served under the same policy, with no inline code', async () => {
    const page = await client(t.app).get('/docs/')
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expectSecurityHeaders(page.headers)
    expect(page.headers['cache-control']).toBeUndefined()

    // script-src 'self' and style-src 'self' allow no inline script, handler or style.
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i)
    expect(page.text).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i)
    const assets = [...page.text.matchAll(/<(?:script|link)[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1])
    expect(assets).toHaveLength(7)
    for (const asset of assets) {
      expect(asset).toMatch(/^\.\/static\//)
      const reply = await client(t.app).get(`/docs/${asset.slice(2)}`)
      expect(reply.status, asset).toBe(200)
      expectSecurityHeaders(reply.headers)
    }
    // The initializer loads the document from the same origin and calls no outside validator.
    const init = await client(t.app).get('/docs/static/swagger-initializer.js')
    expect(init.text).toContain("resolveUrl('./json')")
    expect(init.text).toContain('validatorUrl: null')
    expect((await client(t.app).get('/docs/json')).status).toBe(200)
  })
})
