import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import helmet, { type HelmetOptions } from 'helmet'

// Browsers keep this for a year; only ever sent on a response that reached the client over TLS.
const HSTS = 'max-age=31536000; includeSubDomains'

/**
 * One Content-Security-Policy for every response. The API reference (/docs, @fastify/swagger-ui)
 * loads only same-origin scripts and styles, has no inline script or style, and draws its icons as
 * data: images, so it works under this policy offline. No `upgrade-insecure-requests`: the embedded
 * default is served over plain HTTP, where it would break /docs for anyone not on localhost.
 */
const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'"],
}

const HELMET: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: false,
}

/**
 * The headers helmet sets, worked out once: they depend on the options only. (@fastify/helmet built
 * helmet's middleware again for every request, parsing the policy each time: about a tenth of the
 * server's CPU per request in a profile of the write benchmark.)
 */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {}
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value)
    },
    removeHeader: () => {},
  }
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {})
  return headers
}

/** Security headers on every response (helmet's), HSTS over TLS only, and API answers never cached. */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = helmetHeaders(HELMET)
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers)
    done()
  })
  app.addHook('onSend', (request, reply, payload, done) => {
    // `protocol` believes X-Forwarded-Proto only from a peer the trustProxy setting trusts.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS)
    // API answers carry personal data and tokens (RFC 6749 §5.1 asks for both headers on a token).
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store').header('pragma', 'no-cache')
    done(null, payload)
  })
}
