import Type from 'typebox'
import { unavailable } from '../../lib/errors.js'
import type { ModulePlugin } from '../types.js'

const Status = Type.Object({ status: Type.String() })

export const healthRoutes: ModulePlugin = (app, { database }) => {
  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: { hide: true, response: { 200: Status } },
    },
    async () => ({ status: 'ok' }),
  )

  app.get(
    '/readyz',
    {
      config: { public: true },
      schema: { hide: true, response: { 200: Status } },
    },
    async () => {
      if (!(await database.ping())) throw unavailable()
      return { status: 'ready' }
    },
  )

  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger())
}
