import type { FastifyRequest } from 'fastify'
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
      statements.addContentTypeParser('multipart/mixed', async (request: FastifyRequest, payload: AsyncIterable<Uint8Array>) => {
        if (Number(request.headers['content-length']) > limits.maxBodyBytes) {
          throw badRequest(`multipart/mixed: the request is larger than ${limits.maxBodyBytes} bytes`)
        }
        return readStatementParts(payload, request.headers['content-type'] ?? '', limits)
      })
      registerResources(statements, [statementsResource(deps)], authenticators, deps)
    })
  }
