import type { ModulePlugin } from '../../../types.js'
import { FetchAnswer, FetchParams } from './cmi5.schemas.js'
import { fetchAuthToken } from './cmi5-fetch.js'

const tags = ['launch']

/**
 * cmi5's fetch URL (§8.2), called by the AU from the content origin or its own host: no user token,
 * open CORS like the LRS, HTTP 200 for the token and for cmi5's error body alike.
 */
export const cmi5FetchRoutes: ModulePlugin = (app, { db }) => {
  // AUs POST with whatever body and media type their library sends: the token is in the path.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined))
  app.addHook('onRequest', async (request, reply) => {
    reply.header('access-control-allow-origin', request.headers.origin ?? '*').header('vary', 'Origin')
  })
  app.options('/fetch/:token', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply.status(204).header('access-control-allow-methods', 'POST').header('access-control-allow-headers', 'content-type').send(),
  )
  app.post(
    '/fetch/:token',
    {
      config: { public: true },
      schema: {
        operationId: 'fetchAuthToken',
        summary: "cmi5's fetch URL",
        description:
          "The launch URL names it. The first POST answers the session credential as `auth-token`; later calls answer cmi5's error body (`error-code` 1: used or ended, 2: not this LMS's). Both with HTTP 200.",
        tags,
        security: [],
        params: FetchParams,
        response: { 200: FetchAnswer },
      },
    },
    async (request) => fetchAuthToken(db, request.params.token),
  )
}
