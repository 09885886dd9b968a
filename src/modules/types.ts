import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.js'
import type { Database, Db } from '../db/database.js'
import type { ActorCache } from '../lib/actor-cache.js'
import type { Tokens } from '../lib/auth.js'
import type { Jobs } from '../lib/jobs.js'
import type { Metrics } from '../lib/metrics.js'
import type { Oidc } from '../lib/oidc.js'
import type { Storage } from '../lib/storage.js'

/** The application as modules see it. Defined here, below app.ts, so that no module imports app.ts back. */
export type App = FastifyInstance<any, any, any, any, TypeBoxTypeProvider>

export interface ModuleDeps {
  config: Config
  database: Database
  db: Db
  tokens: Tokens
  storage: Storage
  actors: ActorCache
  oidc: Oidc
  metrics: Metrics
  /** Queues background work (each wing defines its jobs; modules/index.ts lists them). */
  jobs: Jobs
}

/** A module's routes, with paths relative to the prefix it is registered at in modules/index.ts. */
export type ModulePlugin = (app: App, deps: ModuleDeps) => Promise<void> | void
