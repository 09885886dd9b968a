import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyHttpOptions, FastifyInstance } from 'fastify'
import type { Config } from '../config.js'

// Node checks the request and header timeouts on this interval (30 s by default, which would let a
// slow client hold its socket up to 30 s past its deadline).
const TIMEOUT_CHECK_INTERVAL_MS = 1000

const REFUSALS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Request timeout'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request header fields too large'],
}

/**
 * Errors Node raises on a connection before or outside a request Fastify handles (a request or its
 * headers not received in time, a malformed request line): answered in the contract's shape when no
 * answer has started on the socket, then the socket is closed.
 */
function clientError(error: Error & { code?: string }, socket: Socket): void {
  const answered = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || !socket.writable || answered) {
    socket.destroy()
    return
  }
  const [status, reason, detail] = REFUSALS[error.code ?? ''] ?? [400, 'Bad Request', 'Bad request']
  const body = JSON.stringify({ detail })
  const head = [
    `HTTP/1.1 ${status} ${reason}`,
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
  ]
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy())
}

/**
 * How long a client may take to send its headers, how long an idle connection is kept, how it closes.
 * Node's own request timeout is off: it cannot spare one route, so bodies have their deadlines from
 * watchBodies.
 */
export function httpServerOptions(config: Config): Partial<FastifyHttpOptions<Server>> {
  const { http } = config
  return {
    requestTimeout: 0,
    connectionTimeout: http.idleTimeoutSeconds * 1000,
    keepAliveTimeout: http.keepAliveTimeoutSeconds * 1000,
    maxRequestsPerSocket: http.maxRequestsPerSocket,
    http: {
      requestTimeout: 0,
      headersTimeout: http.headersTimeoutSeconds * 1000,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_INTERVAL_MS, http.headersTimeoutSeconds * 500),
    },
    // Idle keep-alive connections are closed as soon as the server stops (see shutdown.ts for the rest).
    forceCloseConnections: 'idle',
    // A request still arriving on an open connection while the server drains is served, not refused.
    return503OnClosing: false,
    clientErrorHandler: clientError,
  }
}

/** Bodies that may take as long as they keep the minimum rate (the embedded upload target, standing in for S3). */
const untimed = new WeakSet<IncomingMessage>()
export const exemptFromRequestTimeout = (request: IncomingMessage) => void untimed.add(request)

const hasBody = (request: IncomingMessage) =>
  request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] ?? '0') !== '0'

/** A body being received: its answer, when it began, and the socket's byte count at each check (with its time), newest last. */
interface Arriving {
  response: ServerResponse
  began: number
  counts: { at: number; bytes: number }[]
}

/**
 * Deadlines of request bodies, checked every second: a body still arriving `requestTimeoutSeconds`
 * after its headers, or one whose last `bodyGraceSeconds` brought less than `minBytesPerSecond` for
 * the time they actually span, is answered 408 and its socket closed. While the service holds bytes
 * it has not read yet (it is the slow side), the rate is not held against the client. A body still
 * arriving after its answer has started only has its socket closed: a second answer would corrupt
 * the connection.
 */
export function watchBodies(app: FastifyInstance, { http }: Config): void {
  const arriving = new Map<IncomingMessage, Arriving>()
  const windowMs = http.bodyGraceSeconds * 1000
  let timer: NodeJS.Timeout | undefined
  const check = () => {
    const now = Date.now()
    for (const [request, body] of arriving) {
      if (request.complete || request.destroyed) {
        arriving.delete(request)
        continue
      }
      const { socket } = request
      body.counts.push({ at: now, bytes: socket.bytesRead })
      // Keeps the newest count at least a window old, so the oldest kept spans the whole window.
      while (body.counts.length > 1 && now - body.counts[1].at >= windowMs) body.counts.shift()
      const late = !untimed.has(request) && now - body.began > http.requestTimeoutSeconds * 1000
      const [first, last] = [body.counts[0], body.counts[body.counts.length - 1]]
      const spanMs = last.at - first.at
      const slow =
        http.minBytesPerSecond > 0 &&
        spanMs >= windowMs &&
        last.bytes - first.bytes < (http.minBytesPerSecond * spanMs) / 1000 &&
        request.readableLength === 0
      if (late || slow) {
        arriving.delete(request)
        if (body.response.headersSent || body.response.writableEnded) socket.destroy()
        else clientError(Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket)
      }
    }
    if (arriving.size === 0) {
      clearInterval(timer)
      timer = undefined
    }
  }
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!hasBody(request)) return
    arriving.set(request, { response, began: Date.now(), counts: [{ at: Date.now(), bytes: request.socket.bytesRead }] })
    timer ??= setInterval(check, TIMEOUT_CHECK_INTERVAL_MS).unref()
  })
  app.addHook('onClose', async () => {
    clearInterval(timer)
    arriving.clear()
  })
}

/**
 * Reads and drops what is left of a request body (a refused one, or what follows the part that was
 * wanted), so a client still sending receives the answer instead of a reset connection. Stops after
 * `limit` bytes and says so: the answer then has to close the connection.
 */
export function discardBody(raw: IncomingMessage, limit: number): Promise<boolean> {
  raw.unpipe()
  if (raw.readableEnded || raw.destroyed) return Promise.resolve(true)
  return new Promise((resolve) => {
    let read = 0
    const finish = (complete: boolean) => {
      raw.off('data', onData).off('end', onEnd).off('close', onEnd).off('error', onEnd)
      if (!complete) raw.pause()
      resolve(complete)
    }
    const onData = (chunk: Buffer) => {
      read += chunk.length
      if (read > limit) finish(false)
    }
    const onEnd = () => finish(true)
    raw.on('data', onData).once('end', onEnd).once('close', onEnd).once('error', onEnd)
    raw.resume()
  })
}
