import Type from 'typebox'
import { unavailable } from '../../../lib/errors.js'
import type { ModulePlugin } from '../../types.js'

const Status = Type.Object({ status: Type.String() })

export const healthRoutes: ModulePlugin = (app, { database, storage }) => {
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
      const [databaseUp, storageUp] = await Promise.all([database.ping(), storage.ready()])
      if (!databaseUp) throw unavailable()
      if (!storageUp) throw unavailable('Storage unavailable')
      return { status: 'ready' }
    },
  )

  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger())
}
