import type { FastifyInstance } from 'fastify'

// While draining, sockets that went idle after answering are closed this often.
const REAP_INTERVAL_MS = 100

/**
 * Bounded shutdown. On close the server stops accepting and its idle keep-alive connections are closed
 * at once; requests in flight may finish (each answered with `Connection: close`, and the socket is
 * closed as soon as it is idle) for up to `graceSeconds`, then every connection left is cut.
 */
export function registerDrain(app: FastifyInstance, graceSeconds: number): void {
  let draining = false
  const timers: NodeJS.Timeout[] = []
  app.addHook('preClose', async () => {
    draining = true
    const server = app.server
    if (!server.listening) return
    server.closeIdleConnections()
    timers.push(setInterval(() => server.closeIdleConnections(), REAP_INTERVAL_MS))
    timers.push(setTimeout(() => server.closeAllConnections(), graceSeconds * 1000))
  })
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close')
    done(null, payload)
  })
  app.addHook('onClose', async () => {
    for (const timer of timers) clearTimeout(timer)
  })
}

/**
 * SIGTERM or SIGINT runs `stop` once and exits 0 when it is done (1 if it fails). A repeated signal
 * is ignored (a terminal's Ctrl-C reaches cluster workers directly and through the primary); should
 * `stop` hang past `deadlineSeconds`, the process exits 1.
 */
export function onShutdownSignal(stop: () => Promise<void>, deadlineSeconds: number): void {
  let stopping = false
  const shutdown = () => {
    if (stopping) return
    stopping = true
    setTimeout(() => process.exit(1), deadlineSeconds * 1000).unref()
    stop().then(
      () => process.exit(0),
      (error) => {
        console.error('Seaworthy could not stop cleanly:', error instanceof Error ? error.message : error)
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', shutdown)
  process.on('SIGINT', shutdown)
}
