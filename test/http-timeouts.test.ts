import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from './app.js'

let t: TestApp
let port: number
beforeAll(async () => {
  t = await buildTestApp({ REQUEST_TIMEOUT_SECONDS: '2', HEADERS_TIMEOUT_SECONDS: '1', KEEP_ALIVE_TIMEOUT_SECONDS: '1' })
  await t.app.listen({ host: '127.0.0.1', port: 0 })
  port = (t.app.server.address() as AddressInfo).port
})
afterAll(() => t.app.close())

/** Writes `sent` over a raw socket, then stalls; resolves with all it received once the server closes it. */
function stall(sent: string): Promise<{ received: string; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const socket = connect(port, '127.0.0.1', () => socket.write(sent))
    let received = ''
    socket.on('data', (chunk) => {
      received += chunk
    })
    socket.on('error', reject)
    socket.on('close', () => resolve({ received, seconds: (Date.now() - started) / 1000 }))
    setTimeout(() => reject(new Error(`socket still open; received: ${received}`)), 15_000).unref()
  })
}

function parse(raw: string) {
  const [head, body] = raw.split('\r\n\r\n')
  return { status: head.split(' ')[1], head: head.toLowerCase(), body: body ? JSON.parse(body) : undefined }
}

describe('HTTP timeouts', () => {
  it('answer 408 and close the socket of a client that sends its body too slowly', async () => {
    const headers = 'POST /api/v1/auth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n'
    const { received, seconds } = await stall(`${headers}{"email":"a`)
    const reply = parse(received)
    expect(reply.status).toBe('408')
    expect(reply.body).toEqual({ detail: 'Request timeout' })
    expect(reply.head).toContain('connection: close')
    expect(seconds).toBeGreaterThanOrEqual(1.5)
    expect(seconds).toBeLessThan(6)
  })

  it('answer 408 to a client that never finishes its headers', async () => {
    const { received, seconds } = await stall('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1')
    expect(parse(received).status).toBe('408')
    expect(parse(received).body).toEqual({ detail: 'Request timeout' })
    expect(seconds).toBeLessThan(5)
  })

  it('close an idle keep-alive connection after the keep-alive timeout', async () => {
    const { received, seconds } = await stall('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n')
    expect(parse(received).status).toBe('200')
    expect(seconds).toBeLessThan(5)
  })
})
