import type { FastifyReply, FastifyRequest } from 'fastify'
import type { App, ModuleDeps } from '../../types.js'
import { authenticate, type XapiAuthenticator, type XapiPrincipal } from './auth.js'
import { badRequest } from './errors.js'
import type { StatementParts } from './multipart.js'

export type XapiMethod = 'GET' | 'PUT' | 'POST' | 'DELETE'

/** One request to the LRS as the handlers read it, the same whether it came plainly or in the alternate request syntax. */
export interface XapiRequest {
  method: XapiMethod
  query: Record<string, string>
  /** Lower-cased names. */
  headers: Record<string, string | undefined>
  body: Buffer | undefined
  /** A statement request in multipart/mixed, read as it streamed in (the statements resource's own body parser). */
  multipart?: StatementParts
  /** The media type alone, lower-cased ('' when none). */
  mediaType: string
  contentType: string
}

/** A request with its authenticated caller: what every resource but an open one handles. */
export interface XapiCall extends XapiRequest {
  principal: XapiPrincipal
}

export type XapiHandler = (call: XapiCall, reply: FastifyReply) => Promise<unknown>

/** A resource that answers only authenticated callers who send the version header. */
interface GuardedResource {
  path: string
  open?: false
  methods: Partial<Record<XapiMethod, XapiHandler>>
}

/** A resource that answers without credentials or a version header (`about`): its handlers have no caller. */
interface OpenResource {
  path: string
  open: true
  methods: Partial<Record<XapiMethod, (request: XapiRequest, reply: FastifyReply) => Promise<unknown>>>
}

export type XapiResource = GuardedResource | OpenResource

const VERSION = /^1\.0(\.\d+)?$/
/** Headers the alternate request syntax carries as form fields (xAPI 1.0.3 §1.3, "Alternate Request Syntax"). */
const FORM_HEADERS = ['authorization', 'x-experience-api-version', 'content-type', 'content-length', 'if-match', 'if-none-match']
/** What a header may hold (RFC 9110 §5.5): a form field standing for one must too, or it could not be answered back (Content-Type). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/

/** No parameter holds a NUL: no IRI, id or JSON needs one, and PostgreSQL's text cannot store it. */
function assertParam(name: string, value: string): void {
  if (value.includes('\u0000')) throw badRequest(`${name}: contains a NUL character`)
}

function singleValues(query: Record<string, unknown>): Record<string, string> {
  for (const [name, value] of Object.entries(query)) {
    if (typeof value !== 'string') throw badRequest(`${name}: given more than once`)
    assertParam(name, value)
  }
  return query as Record<string, string>
}

/** Rewrites a POST with `?method=` into the call it stands for: its headers, content and parameters come as a form. */
function alternateCall(request: FastifyRequest, query: Record<string, string>) {
  const method = query.method.toUpperCase()
  if (!['GET', 'PUT', 'POST', 'DELETE'].includes(method)) throw badRequest(`method: ${query.method} is not an xAPI method`)
  if (Object.keys(query).length > 1) throw badRequest('With the alternate request syntax, method is the only parameter of the URL')
  const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  if (type !== 'application/x-www-form-urlencoded') throw badRequest('The alternate request syntax sends application/x-www-form-urlencoded')
  const form = new URLSearchParams(Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '')
  const headers: Record<string, string | undefined> = { ...(request.headers as Record<string, string>), 'content-type': undefined }
  const params: Record<string, string> = {}
  let body: Buffer | undefined
  for (const [name, value] of form) {
    const lower = name.toLowerCase()
    if (FORM_HEADERS.includes(lower)) {
      if (!HEADER_VALUE.test(value)) throw badRequest(`${name}: not a value a header can hold`)
      headers[lower] = value
    } else if (name === 'content') body = Buffer.from(value)
    else if (name in params) throw badRequest(`${name}: given more than once`)
    else {
      assertParam(name, value)
      params[name] = value
    }
  }
  // Content without a Content-Type field is JSON, the media type of every xAPI resource that takes a body.
  if (body && headers['content-type'] === undefined) headers['content-type'] = 'application/json'
  return { method: method as XapiMethod, headers, query: params, body }
}

/** The request read as xAPI sees it: plain, or the call an alternate-syntax POST stands for. */
function readRequest(request: FastifyRequest): XapiRequest {
  const query = singleValues(request.query as Record<string, unknown>)
  const body = request.body as Buffer | StatementParts | undefined
  const plain = request.method === 'POST' && query.method !== undefined ? null : request
  const parts = plain
    ? {
        method: (request.method === 'HEAD' ? 'GET' : request.method) as XapiMethod,
        headers: request.headers as Record<string, string>,
        query,
        body: Buffer.isBuffer(body) ? body : undefined,
        multipart: Buffer.isBuffer(body) ? undefined : body,
      }
    : alternateCall(request, query)
  const contentType = parts.headers['content-type'] ?? ''
  return { ...parts, contentType, mediaType: contentType.split(';')[0].trim().toLowerCase() }
}

/** The resource's handler of a method; a method it lacks is xAPI's 400. */
function methodOf<H>(resource: { path: string; methods: Partial<Record<XapiMethod, H>> }, method: XapiMethod): H {
  const handler = resource.methods[method]
  if (!handler) throw badRequest(`${method} is not a method of ${resource.path}`)
  return handler
}

/**
 * Registers each resource's methods on one route that reads the call (plain or alternate syntax),
 * checks the version header and authenticates, then hands it to the method's handler. HEAD is GET
 * without the body (Fastify's HEAD routes).
 */
export function registerResources(
  app: App,
  resources: readonly XapiResource[],
  authenticators: readonly XapiAuthenticator[],
  deps: ModuleDeps,
) {
  for (const resource of resources) {
    app.route({
      // Every method on every resource, so a method a resource lacks is xAPI's 400, not the router's 404.
      method: ['GET', 'PUT', 'POST', 'DELETE'],
      url: resource.path,
      config: { public: true },
      schema: { hide: true },
      handler: async (request, reply) => {
        const call = readRequest(request)
        if (resource.open) return methodOf(resource, call.method)(call, reply)
        const handler = methodOf(resource, call.method)
        const version = call.headers['x-experience-api-version']
        if (version === undefined || !VERSION.test(version))
          throw badRequest('X-Experience-API-Version: send 1.0.3 (any 1.0.x is accepted)')
        const principal = await authenticate(call.headers.authorization, authenticators, deps)
        return handler({ ...call, principal }, reply)
      },
    })
  }
}
