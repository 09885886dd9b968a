import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, client, type TestApp } from './app.js'
import { createOrg } from './factories.js'
import { formBody, pathOf, startUpload } from './fixtures/uploads.js'

// Slow request bodies (issue 36): a short grace and a low minimum rate so that the tests take seconds;
// the steady bodies are sent at some 45 times the minimum, so only a sender stalled for most of a
// window could be cut.
const GRACE = { REQUEST_MIN_BYTES_PER_SECOND: '64', REQUEST_BODY_GRACE_SECONDS: '3' }
const STEADY = { bytes: 24_000, chunk: 300, everyMs: 100 }

interface Listening {
  t: TestApp
  port: number
}

async function listening(overrides: Record<string, string>): Promise<Listening> {
  const t = await buildTestApp(overrides)
  await t.app.listen({ host: '127.0.0.1', port: 0 })
  return { t, port: (t.app.server.address() as AddressInfo).port }
}

/**
 * Sends the head, then the body `chunk` bytes every `everyMs`; resolves with what came back once the
 * server closes the socket or has answered the whole body. The timer is a safety net only.
 */
function send(port: number, head: string, body: Buffer, pace: { chunk: number; everyMs: number }) {
  return new Promise<{ status: string; body: string; received: string; seconds: number; sent: number }>((resolve, reject) => {
    const started = Date.now()
    let received = ''
    let sent = 0
    let pacer: NodeJS.Timeout | undefined
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head)
      pacer = setInterval(() => {
        if (sent >= body.length) return clearInterval(pacer)
        socket.write(body.subarray(sent, sent + pace.chunk))
        sent += pace.chunk
      }, pace.everyMs)
    })
    const done = () => {
      clearInterval(pacer)
      clearTimeout(safety)
      const [top, rest] = received.split('\r\n\r\n')
      resolve({ status: top.split(' ')[1], body: rest ?? '', received, seconds: (Date.now() - started) / 1000, sent: Math.min(sent, body.length) })
      socket.destroy()
    }
    socket.on('data', (chunk) => {
      received += chunk
      if (/\r\n\r\n/.test(received) && sent >= body.length) done()
    })
    socket.on('error', () => {})
    socket.on('close', done)
    const safety = setTimeout(() => {
      socket.destroy()
      reject(new Error(`still open; received: ${received}`))
    }, 90_000)
  })
}

const jsonHead = (length: number) =>
  `POST /api/v1/auth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`
/** A login body of exactly `bytes` bytes: answered 401 once it has all arrived. */
const loginBody = (bytes: number) => {
  const start = '{"email":"nobody@example.test","password":"wrong password","pad":"'
  return Buffer.from(`${start}${'x'.repeat(bytes - start.length - 2)}"}`)
}

/** A presigned upload of `bytes` bytes: the head and body of its POST to the embedded target. */
async function uploadRequest({ t }: Listening, bytes: number) {
  const org = await createOrg(t.app, t.database.db)
  const { presignedPost } = await startUpload(client(t.app, org.crew.token), bytes, 'application/pdf', 'scan.pdf')
  const { payload, contentType } = await formBody(presignedPost.fields, Buffer.alloc(bytes, 1))
  const head = `POST ${pathOf(presignedPost.url)} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\n\r\n`
  return { head, payload }
}

describe('a body slower than the minimum rate', () => {
  let server: Listening
  beforeAll(async () => {
    server = await listening({ ...GRACE, REQUEST_TIMEOUT_SECONDS: '600' })
  })
  afterAll(() => server.t.app.close())

  it('is cut with 408 once the grace is over, on the API', async () => {
    const reply = await send(server.port, jsonHead(100), loginBody(100), { chunk: 1, everyMs: 1000 })
    expect(reply.status).toBe('408')
    expect(JSON.parse(reply.body)).toEqual({ detail: 'Request timeout' })
    expect(reply.seconds).toBeGreaterThanOrEqual(2.5)
  })

  it('is cut with 408 on the embedded upload target', async () => {
    const { head, payload } = await uploadRequest(server, 1000)
    const reply = await send(server.port, head, payload, { chunk: 1, everyMs: 1000 })
    expect(reply.status).toBe('408')
    expect(reply.seconds).toBeGreaterThanOrEqual(2.5)
  })

  it('answered before it ends is cut without a second answer on the socket', async () => {
    // No token: the 401 goes out at once, while the body still trickles in below the minimum rate.
    const head = `POST /api/v1/users/me/password HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`
    const reply = await send(server.port, head, Buffer.alloc(100, 0x20), { chunk: 1, everyMs: 1000 })
    expect(reply.status).toBe('401')
    expect(reply.received.match(/HTTP\/1\.1 /g)).toHaveLength(1)
    expect(reply.received).not.toContain('408')
    expect(reply.seconds).toBeGreaterThanOrEqual(2.5)
  })

  it('is not cut when it keeps above the minimum, over several windows', async () => {
    const body = loginBody(STEADY.bytes)
    const reply = await send(server.port, jsonHead(body.length), body, STEADY)
    expect(reply.sent).toBe(body.length)
    expect(reply.status).toBe('401')
    expect(reply.seconds).toBeGreaterThan(6)
  })
})

describe('a body longer than REQUEST_TIMEOUT_SECONDS', () => {
  let server: Listening
  beforeAll(async () => {
    server = await listening({ ...GRACE, REQUEST_TIMEOUT_SECONDS: '2' })
  })
  afterAll(() => server.t.app.close())

  it('is cut with 408 on the API, however steady', async () => {
    const body = loginBody(STEADY.bytes)
    const reply = await send(server.port, jsonHead(body.length), body, STEADY)
    expect(reply.status).toBe('408')
    expect(reply.sent).toBeLessThan(body.length)
  })

  it('is not cut on the embedded upload target while it keeps the minimum rate (a ship’s slow link)', async () => {
    const { head, payload } = await uploadRequest(server, STEADY.bytes)
    const reply = await send(server.port, head, payload, STEADY)
    expect(reply.sent).toBe(payload.length)
    expect(reply.status).toBe('204')
    expect(reply.seconds).toBeGreaterThan(4)
  })
})
