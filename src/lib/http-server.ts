import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyHttpOptions } from 'fastify'
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

/** How long a client may take to send a request, how long an idle connection is kept, how it closes. */
export function httpServerOptions(config: Config): Partial<FastifyHttpOptions<Server>> {
  const { http } = config
  const requestTimeout = http.requestTimeoutSeconds * 1000
  return {
    requestTimeout,
    connectionTimeout: http.idleTimeoutSeconds * 1000,
    keepAliveTimeout: http.keepAliveTimeoutSeconds * 1000,
    maxRequestsPerSocket: http.maxRequestsPerSocket,
    http: {
      requestTimeout,
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
