import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
  receivedAt: number
}

/** What the receiver does at a path: answer with a status (after `delayMs`), or never answer. */
export type Behaviour = { status: number; delayMs?: number } | 'hang'

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests. Each path behaves as set with `at` (default:
 * 204 at once); every request is recorded, and `onRequest` runs before the answer.
 */
export async function startReceiver() {
  const received: Received[] = []
  const behaviours = new Map<string, Behaviour>()
  const hanging = new Set<ServerResponse>()
  const waiters: (() => void)[] = []
  let onRequest: (request: Received) => void | Promise<void> = () => {}
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', async () => {
      const request = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() }
      received.push(request)
      for (const wake of waiters.splice(0)) wake()
      await onRequest(request)
      const behaviour = behaviours.get(request.path) ?? { status: 204 }
      if (behaviour === 'hang') return void hanging.add(res)
      setTimeout(() => res.writeHead(behaviour.status).end(), behaviour.delayMs ?? 0)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    received,
    url: (path: string) => `${base}${path}`,
    at(path: string, behaviour: Behaviour) {
      behaviours.set(path, behaviour)
    },
    onRequest(handler: typeof onRequest) {
      onRequest = handler
    },
    /** Resolves once `count` requests matching `match` have arrived (the test's timeout ends a wait that never does). */
    async waitFor(match: (request: Received) => boolean, count = 1): Promise<Received[]> {
      for (;;) {
        const matching = received.filter(match)
        if (matching.length >= count) return matching
        await new Promise<void>((resolve) => waiters.push(resolve))
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>
