import { createHash } from 'node:crypto'
import type { App } from '../../../types.js'
import { HOST_SCRIPT, hostPage } from './host-script.js'
import { SW_SCRIPT } from './sw-script.js'

// The host's script changes with a release; the worker's text names its digest, so the browser sees a new worker and
// its install keeps the new host.
const HOST_DIGEST = createHash('sha256').update(HOST_SCRIPT).digest('hex').slice(0, 16)
const WORKER = `// host ${HOST_DIGEST}\n${SW_SCRIPT}`

/**
 * The content origin's offline pieces (DECISIONS §16): its service worker, at the root so that it controls
 * every package path and the player, and the download host the console frames. Never cached by HTTP: a
 * release reaches devices at their next check.
 */
export function offlineContentRoutes(app: App, { consoleOrigin }: { consoleOrigin: string }): void {
  const page = hostPage(consoleOrigin)
  const noCache = { 'cache-control': 'no-cache' }
  app.get('/offline-sw.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.headers({ ...noCache, 'content-type': 'text/javascript; charset=utf-8' }).send(WORKER),
  )
  app.get('/offline/host.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.headers({ ...noCache, 'content-type': 'text/javascript; charset=utf-8' }).send(HOST_SCRIPT),
  )
  app.get('/offline/host', { schema: { hide: true } }, async (_request, reply) =>
    reply.headers({ ...noCache, 'content-type': 'text/html; charset=utf-8' }).send(page),
  )
}
