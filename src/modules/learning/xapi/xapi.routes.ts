import type { IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import { discardBody } from '../../../lib/http-server.js'
import type { App, ModulePlugin } from '../../types.js'
import { basicCredentials, staffBearer, type XapiAuthenticator } from './auth.js'
import { documentResources } from './documents.routes.js'
import { badRequest, registerXapiErrors } from './errors.js'
import { registerResources } from './http.js'
import { metaResources } from './meta.routes.js'
import { readStatementParts } from './multipart.js'
import { statementsResource } from './statements.routes.js'

const EXPOSED = ['etag', 'last-modified', 'content-type', 'x-experience-api-version', 'x-experience-api-consistent-through']
const ALLOWED = ['authorization', 'content-type', 'x-experience-api-version', 'if-match', 'if-none-match', 'accept-language']

/** The credentials every LRS accepts; modules/index.ts may put others first (a launch session's credential). */
export const LRS_AUTHENTICATORS: XapiAuthenticator[] = [basicCredentials, staffBearer]

/**
 * The LRS (DECISIONS §13.1) under /api/v1/learn/xapi: its own body parsing (any media type, read as
 * bytes), authentication, errors and open CORS, apart from the rest of the API.
 */
export const xapiRoutes =
  (authenticators: readonly XapiAuthenticator[] = LRS_AUTHENTICATORS): ModulePlugin =>
  (app, deps) => {
    const limits = deps.config.xapi
    app.removeAllContentTypeParsers()
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: limits.maxBodyBytes }, (_request, body, done) => done(null, body))
    registerXapiErrors(app)
    // Content runs on other origins and sends its credentials in Authorization, never in cookies: any origin may call.
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-experience-api-version', '1.0.3')
      reply.header('access-control-allow-origin', request.headers.origin ?? '*')
      reply.header('access-control-expose-headers', EXPOSED.join(', '))
      reply.header('vary', 'Origin')
      // Every answer of the statement resource says how current it is, a refused query too (the handler restates it).
      if (request.routeOptions.url?.endsWith('/statements')) reply.header('x-experience-api-consistent-through', new Date().toISOString())
    })
    app.options('/*', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
      reply
        .status(204)
        .header('access-control-allow-methods', 'GET, HEAD, PUT, POST, DELETE')
        .header('access-control-allow-headers', ALLOWED.join(', '))
        .header('access-control-max-age', '600')
        .send(),
    )
    app.setNotFoundHandler((_request, reply) =>
      reply.status(404).header('x-experience-api-version', '1.0.3').send({ error: true, message: 'Not an xAPI resource' }),
    )
    registerResources(app, [...documentResources(deps), ...metaResources(deps)], authenticators, deps)
    // Statements with attachments stream through the multipart parser, its limits checked as the bytes arrive.
    app.register(async (statements: App) => {
      // A refused body is read on to its end (up to the limit), so that the client still sending gets the answer
      // rather than a connection reset under it (Fastify closes the connection after any parser's error, with the
      // rest of the body unread: the kernel then resets it). The answer goes at once and the connection stays open
      // for the next request; to a client that asked to close it, only once the body is in.
      const refused = new WeakMap<IncomingMessage, Promise<boolean> | null>()
      const drain = (raw: IncomingMessage) => {
        const drained = refused.get(raw) ?? discardBody(raw, limits.maxBodyBytes)
        refused.set(raw, drained)
        return drained
      }
      statements.addContentTypeParser('multipart/mixed', async (request: FastifyRequest, payload: Readable) => {
        try {
          if (Number(request.headers['content-length']) > limits.maxBodyBytes) {
            throw badRequest(`multipart/mixed: the request is larger than ${limits.maxBodyBytes} bytes`)
          }
          return await readStatementParts(payload.iterator({ destroyOnReturn: false }), request.headers['content-type'] ?? '', limits)
        } catch (error) {
          refused.set(request.raw, null)
          throw error
        }
      })
      statements.addHook('onSend', async (request, reply) => {
        if (!refused.has(request.raw)) return
        reply.removeHeader('connection')
        if (reply.raw.shouldKeepAlive) return
        if (!(await drain(request.raw))) reply.header('connection', 'close')
      })
      statements.addHook('onResponse', async (request) => {
        if (refused.has(request.raw)) void drain(request.raw).then((all) => all || request.raw.socket.destroy())
      })
      registerResources(statements, [statementsResource(deps)], authenticators, deps)
    })
  }
