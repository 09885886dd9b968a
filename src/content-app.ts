import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyServerOptions } from 'fastify'
import type { Config } from './config.js'
import { frameworkErrors, registerErrorHandler } from './lib/http-errors.js'
import { httpServerOptions, watchBodies } from './lib/http-server.js'
import { loggerOptions } from './lib/logging.js'
import { createStorage, type Storage } from './lib/storage.js'
import { CONTENT_PREFIX, contentPaths } from './modules/learning/content/content.paths.js'
import { contentRoutes } from './modules/learning/content/content.routes.js'
import { offlineContentRoutes } from './modules/learning/offline/content-worker/offline-content.routes.js'
import { playerRoutes } from './modules/learning/standards/scorm/player.routes.js'
import type { App } from './modules/types.js'

export interface ContentAppDeps {
  config: Config
  storage?: Storage
  logger?: FastifyServerOptions['logger']
}

/**
 * The content origin (DECISIONS §13.3): package files, which are untrusted HTML and script, served
 * apart from the API and the console so that no package shares their origin (and with it a signed-in
 * user's token). It has no routes of the API, no session of its own and no database: a file is served
 * to whoever holds a launch session's path. Framed only by the console and by itself (the SCORM player).
 */
export async function buildContentApp(deps: ContentAppDeps): Promise<App> {
  const { config } = deps
  const app = Fastify({
    ...httpServerOptions(config),
    logger: loggerOptions(config.logLevel, deps.logger),
    frameworkErrors,
    // A session token (content.paths.ts) is some 200 characters: past the router's default of 100.
    routerOptions: { maxParamLength: 512 },
  }).withTypeProvider<TypeBoxTypeProvider>()
  registerErrorHandler(app)
  watchBodies(app, config)
  const frameAncestors = `frame-ancestors 'self' ${new URL(config.publicUrl).origin}`
  app.addHook('onSend', async (_request, reply) => {
    reply.headers({ 'content-security-policy': frameAncestors, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' })
  })
  const storage = deps.storage ?? createStorage(config)
  const paths = contentPaths(config)
  await app.register(async (scope: App) => contentRoutes(scope, { storage, paths }), { prefix: CONTENT_PREFIX })
  await app.register(async (scope: App) => playerRoutes(scope, { paths }))
  await app.register(async (scope: App) => offlineContentRoutes(scope, { consoleOrigin: new URL(config.publicUrl).origin }))
  // Someone who opens this origin by hand learns what it is and where to go instead.
  const about = `This is Seaworthy's content origin: it serves training courses to the people who launch them from the console at ${new URL('/console/', config.publicUrl)}, and nothing else.\n`
  app.get('/', async (_request, reply) => reply.type('text/plain; charset=utf-8').send(about))
  return app
}
