import type { App } from '../app.js'
import type { Config } from '../config.js'
import type { Database, Db } from '../db/database.js'
import type { ActorCache } from '../lib/actor-cache.js'
import type { Tokens } from '../lib/auth.js'
import type { Oidc } from '../lib/oidc.js'
import type { Storage } from '../lib/storage.js'

export interface ModuleDeps {
  config: Config
  database: Database
  db: Db
  tokens: Tokens
  storage: Storage
  actors: ActorCache
  oidc: Oidc
}

export type Module = (app: App, deps: ModuleDeps) => Promise<void> | void
