import compress from '@fastify/compress'
import cors from '@fastify/cors'
import formbody from '@fastify/formbody'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyServerOptions, LogController } from 'fastify'
import type { Config } from './config.js'
import type { Database } from './db/database.js'
import { ACTOR_CHANNEL, ActorCache } from './lib/actor-cache.js'
import { createTokens, registerAuth } from './lib/auth.js'
import { registerConsole } from './lib/console.js'
import { frameworkErrors, registerErrorHandler } from './lib/http-errors.js'
import { httpServerOptions, watchBodies } from './lib/http-server.js'
import { registerIdempotency } from './lib/idempotency.js'
import { parseForm } from './lib/input-hygiene.js'
import { DEFAULT_TUNING, Jobs, type JobTuning } from './lib/jobs.js'
import { loggerOptions } from './lib/logging.js'
import { createMetrics, registerRequestMetrics } from './lib/metrics.js'
import { createOidc } from './lib/oidc.js'
import { documentObject, documentRoute } from './lib/openapi.js'
import { registerRequestId, requestIdOf } from './lib/request-id.js'
import { registerRequestValidation } from './lib/request-validation.js'
import { registerSecurityHeaders } from './lib/security-headers.js'
import { registerDrain } from './lib/shutdown.js'
import { createStorage, type Storage } from './lib/storage.js'
import { defineJobs, registerModules } from './modules/index.js'
import type { App } from './modules/types.js'

export interface AppDeps {
  config: Config
  database: Database
  storage?: Storage
  logger?: FastifyServerOptions['logger']
  /** Timeouts and intervals of the job queue, where the defaults do not suit. */
  jobs?: Partial<JobTuning>
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

// Callers of buildApp (server, CLI, tests) name its result with this.
export type { App }

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, database } = deps
  const app = Fastify({
    ...httpServerOptions(config),
    logger: loggerOptions(config.logLevel, deps.logger),
    bodyLimit: 1024 * 1024,
    // Registering every route compiles its schemas: on a loaded machine (CI beside other work) that has taken
    // longer than Fastify's default 10 s, which failed a healthy start.
    pluginTimeout: 60_000,
    // cmi5 AUs join the LRS endpoint (which ends in `/`, as xAPI writes it) and a resource with another `/`
    // (ADL's cmi5.js asks for `…/xapi//activities/state`): a doubled slash names the same route.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    // X-Forwarded-For is believed only from the configured proxies; anyone else could pick their address with it.
    trustProxy: config.trustProxy.length ? [...config.trustProxy] : false,
    frameworkErrors,
    // The id is ours to check (lib/request-id.ts), so Fastify does not read the header itself.
    requestIdHeader: false,
    genReqId: requestIdOf,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
  }).withTypeProvider<TypeBoxTypeProvider>()

  const metrics = createMetrics(database)
  registerRequestId(app)
  registerRequestMetrics(app, metrics)
  registerErrorHandler(app)
  registerDrain(app, config.shutdownGraceSeconds)
  watchBodies(app, config)
  await registerSecurityHeaders(app)
  // DECISIONS §12: gzip or br above 1 KiB when accepted. Request bodies stay uncompressed, as before.
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'], globalDecompression: false })
  if (config.corsOrigins.length) {
    await app.register(cors, {
      origin: [...config.corsOrigins],
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      exposedHeaders: ['x-request-id', 'retry-after', 'content-disposition', 'www-authenticate'],
      maxAge: 600,
    })
  }
  registerIdempotency(app, database.db)
  registerRequestValidation(app)

  // An empty JSON body reads as "no body", so body-less actions accept a Content-Type header.
  // Only JSON (and the login form) are request bodies here; anything else is a 422 json_invalid.
  app.removeContentTypeParser(['application/json', 'text/plain'])
  // JSON text is UTF-8: bytes that are not are refused like any other text that is not JSON.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      const text = utf8.decode(body as Buffer).trim()
      done(null, text === '' ? undefined : JSON.parse(text))
    } catch {
      const error = Object.assign(new Error('Invalid JSON'), {
        code: 'FST_ERR_CTP_INVALID_JSON_BODY',
        statusCode: 400,
      })
      done(error, undefined)
    }
  })
  await app.register(formbody, { parser: parseForm })

  await app.register(swagger, {
    transform: documentRoute,
    transformObject: documentObject,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Seaworthy',
        version: '0.1.0',
        description: 'Crew and learning service for maritime organizations',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: '/', description: 'This service' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
  })
  await app.register(swaggerUi, { routePrefix: '/docs' })

  const tokens = createTokens(config.jwtSecret, config.accessTokenTtlSeconds)
  const actors = new ActorCache()
  const unsubscribe = await database.subscribe(
    ACTOR_CHANNEL,
    (payload) => actors.changed(payload),
    (live) => actors.listening(live),
  )
  registerAuth(app, database.db, tokens, actors)

  const storage = deps.storage ?? createStorage(config)
  const jobs = new Jobs(database, config.runJobs, { ...DEFAULT_TUNING, ...deps.jobs }, app.log)
  await registerModules(app, {
    config,
    database,
    db: database.db,
    tokens,
    actors,
    storage,
    oidc: createOidc(config.sso),
    metrics,
    jobs,
  })
  await registerConsole(app, { fileOrigin: await storage.fileOrigin(), contentOrigin: config.contentOrigin })
  defineJobs(jobs, { db: database.db, config, metrics, storage, log: app.log })
  metrics.jobQueueDepthFrom(() => jobs.depth())
  app.addHook('onReady', () => jobs.start())
  // Before the database closes (onClose): running deliveries may finish and record.
  app.addHook('preClose', () => jobs.stop())
  app.addHook('onClose', async () => {
    await unsubscribe()
    await database.close()
  })
  return app
}
