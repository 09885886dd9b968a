import { ErrorBody, ValidationErrorBody } from '../../../../lib/schemas.js'
import type { StandardsPlugin } from '../../launch/standard.js'
import { CommitAnswer, IdleAnswer, ScormRuntime, ScormSessionParams, SequencingStepAnswer } from './scorm.schemas.js'
import { commitScorm, scormRuntime } from './scorm.service.js'
import { abandonIdle } from './scorm-idle.js'
import { parseStep, sequencingStep } from './scorm-sequencing.service.js'

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

  app.post(
    '/sessions/:session_id/sequencing',
    {
      config: { public: true },
      schema: {
        operationId: 'stepScormSequencing',
        summary: "Keep a SCORM 2004 course's sequencing state and open the delivered SCO's session",
        description:
          "The player of a SCORM 2004 course of several SCOs calls it with the credential of the SCO's session it comes from (open, or ended by its Terminate): `{state, sharedData, deliver?}` as JSON (read as text, as every body here): the sequencing state and shared data are kept for the registration (suspend all resumes there), and `deliver` (a SCO's index) gives the delivered SCO its session: the launch's first session while it has not initialized (answered without a secret), else a new one with its secret. A wrong credential: 401; an abandoned or expired session: 403; a course without sequencing: 409.",
        tags,
        security: [],
        params: ScormSessionParams,
        response: { 200: SequencingStepAnswer, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => sequencingStep(deps, request.params.session_id, request.headers.authorization, parseStep(request.body)),
  )

  app.post(
    '/sessions/:session_id/idle',
    {
      config: { public: true },
      schema: {
        operationId: 'abandonIdleScormSession',
        summary: 'End a SCORM session whose SCO never called the API',
        description:
          "The player calls it with the session's credential when the SCO has not called the API `idleSeconds` (SCORM_IDLE_SECONDS, five minutes by default) after launch, as it shows the learner that the content is not responding: the session ends as abandoned. 409 when the SCO has called the API, the session has ended, or it was launched less than `idleSeconds` ago; a wrong credential: 401.",
        tags,
        security: [],
        params: ScormSessionParams,
        response: { 200: IdleAnswer, 401: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => abandonIdle(deps, request.params.session_id, request.headers.authorization),
  )
}
