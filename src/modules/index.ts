import type { App } from '../app.js'
import { authRoutes } from './auth/auth.routes.js'
import { healthRoutes } from './health/health.routes.js'
import { shipsRoutes } from './ships/ships.routes.js'
import type { ModuleDeps } from './types.js'
import { usersRoutes } from './users/users.routes.js'

/** The one wiring file: every feature module, in one list. */
const modules = [healthRoutes, authRoutes, usersRoutes, shipsRoutes]

export async function registerModules(app: App, deps: ModuleDeps): Promise<void> {
  for (const register of modules) await register(app, deps)
}
