import { ErrorBody } from '../../../../lib/schemas.js'
import type { StandardsPlugin } from '../../launch/standard.js'
import { CommitAnswer, ScormRuntime, ScormSessionParams } from './scorm.schemas.js'
import { commitScorm, scormRuntime } from './scorm.service.js'

const tags = ['launch']

/**
 * The SCORM player's API (DECISIONS §13.4), called from the content origin with the session's own
 * credential (never a user token): open CORS, as the LRS and cmi5's fetch URL.
 */
export const scormRoutes: StandardsPlugin = (app, deps) => {
  // scorm-again commits JSON, and its unload beacon sends the same JSON as text/plain: both read as text.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1_048_576 }, (_request, body, done) => done(null, body))
  app.addHook('onRequest', async (request, reply) => {
    reply.header('access-control-allow-origin', request.headers.origin ?? '*').header('vary', 'Origin')
  })
  app.options('/sessions/:session_id/*', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply
      .status(204)
      .header('access-control-allow-methods', 'GET, POST')
      .header('access-control-allow-headers', 'authorization, content-type')
      .header('access-control-max-age', '600')
      .send(),
  )

  app.get(
    '/sessions/:session_id/runtime',
    {
      config: { public: true },
      schema: {
        operationId: 'getScormRuntime',
        summary: "A SCORM session's starting runtime data",
        description:
          "The player calls it with the session's credential (Basic `session.<session id>:<secret>`, from the launch URL's fragment). A wrong credential: 401; an ended session: 403.",
        tags,
        security: [],
        params: ScormSessionParams,
        response: { 200: ScormRuntime, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => scormRuntime(deps, request.params.session_id, request.headers.authorization),
  )

  app.post(
    '/sessions/:session_id/commit',
    {
      config: { public: true },
      schema: {
        operationId: 'commitScorm',
        summary: "Commit a SCORM session's runtime data",
        description:
          'scorm-again\'s commit: `{cmi, terminate?}` as JSON, or as text/plain from the unload beacon (which carries the credential as `auth` in the body, since a beacon sends no headers). The session\'s credential only. Answers `{"result":"true"}` or `{"result":"false","errorCode":…,"errorText":…}`, HTTP 200 either way: SCORM\'s general exception for a wrong credential, an ended session or a body without `cmi`; the standard\'s type error (1.2: incorrect data type, 2004: type mismatch) for an element of the wrong type, `suspend_data` past 4,096 (1.2) or 64,000 (2004) characters, or nesting deeper than 8. Text with U+0000 or unpaired surrogates is kept with U+FFFD. Only the final commit (`terminate: true`) counts towards the result: it judges the SCO by the state it ends in and ends the session as one attempt; replaying it changes nothing.',
        tags,
        security: [],
        params: ScormSessionParams,
        response: { 200: CommitAnswer },
      },
    },
    async (request): Promise<CommitAnswer> => commitScorm(deps, request.params.session_id, request.headers.authorization, request.body),
  )
}
