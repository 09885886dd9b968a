import { createHash, randomUUID } from 'node:crypto'
import { request } from 'node:http'
import XAPIModule from '@xapi/xapi'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp, useTestApp } from '../../../app.js'
import { createOrg, useOrg } from '../../../factories.js'
import { XAPI as BASE, createCredential, type Lrs, lrs, query, statement } from '../../../fixtures/xapi.js'

// DECISIONS §13.7: what one request to the LRS may carry, and how soon it is refused.
const t = useTestApp()
const org = useOrg(t)
let api: Lrs
beforeAll(async () => {
  api = lrs(t.app, await createCredential(org))
})

const XAPI = XAPIModule as unknown as typeof XAPIModule.default
const BOUNDARY = 'limits-boundary'
const mixed = { 'content-type': `multipart/mixed; boundary=${BOUNDARY}` }
const sha256 = (bytes: string) => createHash('sha256').update(bytes).digest('hex')
const EMPTY = sha256('')

const head = (json: unknown) => `--${BOUNDARY}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(json)}`
/** One empty attachment part, as a delimiter and headers (its content is the nothing before the next delimiter). */
const emptyPart = (extraHeaders = '') =>
  `\r\n--${BOUNDARY}\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: binary\r\nX-Experience-API-Hash: ${EMPTY}\r\n${extraHeaders}\r\n`
const tail = `\r\n--${BOUNDARY}--\r\n`
/** A statement naming one empty text attachment. */
const withEmptyAttachment = () =>
  statement({ attachments: [{ usageType: 'http://x.test/u', display: { en: 'X' }, contentType: 'text/plain', length: 0, sha2: EMPTY }] })

/**
 * A statement as JSON text whose extension nests to `depth` in all (statement, context and extensions
 * are the first three levels): text, since JSON.stringify cannot write thousands of levels.
 */
const deepStatement = (depth: number) =>
  JSON.stringify(statement({ context: { extensions: { 'http://x.test/deep': 'DEEP' } } })).replace(
    '"DEEP"',
    `${'['.repeat(depth - 3)}1${']'.repeat(depth - 3)}`,
  )
const json = { 'content-type': 'application/json' }

describe('multipart/mixed', () => {
  it('takes up to XAPI_MAX_ATTACHMENTS attachments and refuses one more with a 400 that says so', async () => {
    const sent = withEmptyAttachment()
    const parts = (n: number) => Buffer.from(head(sent) + emptyPart().repeat(n) + tail)
    // The same bytes may come in several parts; the statement names them once.
    expect((await api.post('/statements', parts(100), mixed)).status).toBe(200)
    const refused = await api.post('/statements', parts(101), mixed)
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({ error: true, message: 'multipart/mixed: more than 100 attachments' })
  })

  it('skips a preamble (the CRLF some clients send first) and the epilogue, as RFC 2046 says, but not a preamble past 8 KiB', async () => {
    const body = (preamble: string) => Buffer.from(`${preamble}${head(withEmptyAttachment())}${emptyPart()}${tail}epilogue\r\n`)
    expect((await api.post('/statements', body('\r\n'), mixed)).status).toBe(200)
    expect((await api.post('/statements', body('A preamble.\r\n'), mixed)).status).toBe(200)
    const long = await api.post('/statements', body(`${'x'.repeat(9000)}\r\n`), mixed)
    expect(long.body).toEqual({ error: true, message: 'multipart/mixed: no part starts with the boundary' })
  })

  it('reads multipart/mixed sent through the alternate request syntax with the same parser and limits', async () => {
    const credential = await createCredential(org)
    const send = (parts: number) =>
      t.app.inject({
        method: 'POST',
        url: `${BASE}/statements?method=POST`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          Authorization: `Basic ${Buffer.from(`${credential.key}:${credential.secret}`).toString('base64')}`,
          'X-Experience-API-Version': '1.0.3',
          'Content-Type': mixed['content-type'],
          content: head(withEmptyAttachment()) + emptyPart().repeat(parts) + tail,
        }).toString(),
      })
    expect((await send(1)).statusCode).toBe(200)
    const refused = await send(101)
    expect([refused.statusCode, JSON.parse(refused.body)]).toEqual([
      400,
      { error: true, message: 'multipart/mixed: more than 100 attachments' },
    ])
  })

  it('refuses hundreds of thousands of parts, and a million bare ones, within 32 MiB, without reading them all', async () => {
    const hashed = Buffer.from(head(withEmptyAttachment()) + emptyPart().repeat(190_000) + tail)
    const bare = Buffer.from(head(withEmptyAttachment()) + `\r\n--${BOUNDARY}\r\nX: y\r\n`.repeat(1_200_000) + tail)
    for (const body of [hashed, bare]) expect(body.length).toBeGreaterThan(30 * 1024 * 1024)
    const refused = await api.post('/statements', hashed, mixed)
    expect(refused.body).toEqual({ error: true, message: 'multipart/mixed: more than 100 attachments' })
    expect((await api.post('/statements', bare, mixed)).body).toEqual({
      error: true,
      message: 'multipart/mixed: part 2 has no X-Experience-API-Hash',
    })
  })

  it("refuses a part's headers past 8 KiB, a part without its hash, and a body that is not multipart", async () => {
    const long = await api.post(
      '/statements',
      Buffer.from(head(withEmptyAttachment()) + emptyPart(`X-Pad: ${'a'.repeat(8192)}\r\n`) + tail),
      mixed,
    )
    expect(long.status).toBe(400)
    expect(long.body.message).toBe("multipart/mixed: a part's headers are longer than 8192 bytes")
    const unhashed = `\r\n--${BOUNDARY}\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: binary\r\n\r\n`
    expect((await api.post('/statements', Buffer.from(head(withEmptyAttachment()) + unhashed + tail), mixed)).status).toBe(400)
    expect((await api.post('/statements', Buffer.from('no boundary here'), mixed)).status).toBe(400)
    expect((await api.post('/statements', Buffer.from(head(statement())), mixed)).status).toBe(400)
    const notUtf8 = Buffer.concat([
      Buffer.from(head(withEmptyAttachment())),
      Buffer.from(emptyPart('X-Name: ')),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(tail),
    ])
    expect((await api.post('/statements', notUtf8, mixed)).status).toBe(400)
  })

  it('refuses statements nested too deep in the first part', async () => {
    const deep = `--${BOUNDARY}\r\nContent-Type: application/json\r\n\r\n${deepStatement(65)}${tail}`
    const res = await api.post('/statements', Buffer.from(deep), mixed)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('The statements part nests objects and arrays deeper than 64')
  })
})

describe('batches and depth', () => {
  const batchOf = (n: number) => {
    const actor = { mbox: `mailto:${randomUUID()}@example.test` }
    return { actor, batch: Array.from({ length: n }, () => statement({ actor })) }
  }

  it('stores XAPI_MAX_BATCH statements in one POST and answers 413 to one more, storing nothing', async () => {
    const full = batchOf(1000)
    expect((await api.post('/statements', full.batch)).body).toHaveLength(1000)
    const over = batchOf(1001)
    const refused = await api.post('/statements', over.batch)
    expect(refused.status).toBe(413)
    expect(refused.body).toEqual({ error: true, message: 'A POST stores at most 1000 statements; send the rest in another' })
    expect((await api.get(`/statements${query({ agent: over.actor, limit: '1' })}`)).body.statements).toEqual([])
  })

  it('refuses a batch past XAPI_MAX_BATCH from its first items, before the rest is parsed', async () => {
    // 1,001 statements, then text that is not JSON: only a count made before parsing answers 413 here.
    const items = batchOf(1001).batch.map((s) => JSON.stringify(s)).join(',')
    const refused = await api.post('/statements', `[${items}, {"not json`, json)
    expect(refused.status).toBe(413)
    // A batch under the limit with the same tail is not JSON: 400.
    expect((await api.post('/statements', `[${batchOf(3).batch.map((s) => JSON.stringify(s)).join(',')}, {"not json`, json)).status).toBe(400)
  })

  it('takes JSON nested 64 deep and refuses 65 and 5,000 deep with a 400, in PUT and POST', async () => {
    const id = randomUUID()
    expect((await api.put(`/statements?statementId=${id}`, deepStatement(64), json)).status).toBe(204)
    for (const depth of [65, 5000]) {
      const put = await api.put(`/statements?statementId=${randomUUID()}`, deepStatement(depth), json)
      expect(put.status).toBe(400)
      expect(put.body.message).toBe('The body nests objects and arrays deeper than 64')
      expect((await api.post('/statements', `[${deepStatement(depth)}]`, json)).status).toBe(400)
    }
    // A batch array is one more level.
    expect((await api.post('/statements', `[${deepStatement(64)}]`, json)).status).toBe(400)
    // Brackets inside strings are text, not nesting.
    expect((await api.post('/statements', statement({ result: { response: '['.repeat(5000) } }))).status).toBe(200)
  })
})

describe('query parameters', () => {
  it('refuses bad since, until, registration, verb, activity and limit with a 400', async () => {
    const bad = [
      { since: '0000-01-01T00:00:00Z' },
      { since: '9999-12-31T23:59:59-14:00' },
      { until: '2024-02-30T00:00:00Z' },
      { since: 'yesterday' },
      { since: '2024-01-01T00:00:00' },
      { until: '2024-13-01T00:00:00Z' },
      { registration: 'not-a-uuid' },
      { registration: '' },
      { verb: 'completed' },
      { activity: 'a b' },
      { verb: 'http://x.test/\u0000' },
      { limit: '1e9' },
      { limit: '-1' },
      { limit: '1.5' },
      { limit: '' },
    ]
    for (const params of bad) {
      const res = await api.get(`/statements${query(params)}`)
      expect({ params, status: res.status, error: res.body?.error }).toEqual({ params, status: 400, error: true })
    }
  })

  it('caps limit at 500: a larger number, or 0, asks for the fullest page', async () => {
    const actor = { mbox: `mailto:${randomUUID()}@example.test` }
    expect(
      (
        await api.post(
          '/statements',
          Array.from({ length: 501 }, () => statement({ actor })),
        )
      ).status,
    ).toBe(200)
    for (const limit of ['1000000000', '99999999999999999999', '0']) {
      const page = await api.get(`/statements${query({ agent: actor, limit })}`)
      expect(page.body.statements).toHaveLength(500)
      const rest = await api.get(page.body.more.replace(BASE, ''))
      expect(rest.body.statements).toHaveLength(1)
    }
  })
})

describe('more', () => {
  it('follows the links it signed, and refuses forged, altered and borrowed ones with a 400', async () => {
    const actor = { mbox: `mailto:${randomUUID()}@example.test` }
    await api.post('/statements', [statement({ actor }), statement({ actor })])
    const first = await api.get(`/statements${query({ agent: actor, limit: '1' })}`)
    const link: string = first.body.more.replace(BASE, '')
    expect((await api.get(link)).body.statements).toHaveLength(1)

    const token = new URL(link, 'http://x').searchParams.get('more') as string
    const [payload, signature] = token.split('.')
    const state = JSON.parse(Buffer.from(payload, 'base64url').toString())
    const widened = Buffer.from(JSON.stringify({ ...state, filter: { ...state.filter, limit: 1e9 } })).toString('base64url')
    const other = lrs(t.app, await createCredential(await createOrg(t.app, t.database.db)))
    const refusals = [
      api.get('/statements?more=bnVsbA'),
      api.get(`/statements?more=${widened}.${signature}`),
      api.get(`/statements?more=${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`),
      api.get(`/statements?more=${payload}`),
      other.get(link),
    ]
    for (const res of await Promise.all(refusals)) expect(res.body).toEqual({ error: true, message: 'more: not a link this LRS gave' })
  })
})

describe('over HTTP', () => {
  let own: TestApp
  let origin: string
  let auth: string
  let credential: { key: string; secret: string }
  beforeAll(async () => {
    own = await buildTestApp({ XAPI_MAX_BODY_BYTES: String(1024 * 1024) })
    origin = await own.app.listen({ host: '127.0.0.1', port: 0 })
    credential = await createCredential(await createOrg(own.app, own.database.db))
    auth = `Basic ${Buffer.from(`${credential.key}:${credential.secret}`).toString('base64')}`
  })
  afterAll(() => own.app.close())

  /** A POST of chunks over a socket of its own, ended or left open; resolves with the answer as soon as one comes. */
  const post = (chunks: string[], end: boolean) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${origin}${BASE}/statements`, {
        method: 'POST',
        headers: { ...mixed, authorization: auth, 'x-experience-api-version': '1.0.3', 'transfer-encoding': 'chunked' },
      })
      req.on('response', (res) => {
        let body = ''
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', () => {
          req.destroy()
          resolve({ status: res.statusCode ?? 0, body })
        })
      })
      // The server closes the connection after its answer: a write still under way may fail, the answer stands.
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)))
      for (const chunk of chunks) req.write(chunk)
      if (end) req.end()
    })

  it('answers 400 while a multipart body is still arriving, as soon as a limit is crossed', async () => {
    // The body never ends: only a parser that reads as it goes can answer.
    const { status, body } = await post([head(withEmptyAttachment()), emptyPart().repeat(200)], false)
    expect(status).toBe(400)
    expect(JSON.parse(body)).toEqual({ error: true, message: 'multipart/mixed: more than 100 attachments' })
  })

  it('refuses a body past XAPI_MAX_BODY_BYTES: 400 for multipart/mixed, declared or not, 413 for JSON', async () => {
    const padding = `\r\n--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\n${'x'.repeat(64 * 1024)}`
    const tooLarge = { error: true, message: 'multipart/mixed: the request is larger than 1048576 bytes' }
    const chunked = await post([head(withEmptyAttachment()), ...Array.from({ length: 17 }, () => 'x'.repeat(64 * 1024))], false)
    expect(chunked.status).toBe(400)
    expect(JSON.parse(chunked.body)).toEqual(tooLarge)
    const headers = { authorization: auth, 'x-experience-api-version': '1.0.3' }
    const declared = await fetch(`${origin}${BASE}/statements`, {
      method: 'POST',
      headers: { ...headers, ...mixed },
      body: head(withEmptyAttachment()) + padding.repeat(17) + tail,
    })
    expect(declared.status).toBe(400)
    expect(await declared.json()).toEqual(tooLarge)
    const json = await fetch(`${origin}${BASE}/statements`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(statement({ result: { response: 'x'.repeat(1024 * 1024) } })),
    })
    expect(json.status).toBe(413)
  })

  it('stores an attachment @xapi/xapi sends in multipart/mixed, and gives it back', async () => {
    // Its fetch adapter: with axios in Node.js the multipart body leaves as application/octet-stream.
    const xapi = new XAPI({
      endpoint: `${origin}${BASE}/`,
      auth: XAPI.toBasicAuth(credential.key, credential.secret),
      version: '1.0.3',
      adapter: 'fetch',
    })
    const text = 'Certificate of proficiency in survival craft'
    const attachment = {
      usageType: XAPI.AttachmentUsages.SUPPORTING_MEDIA,
      display: { 'en-US': 'Certificate' },
      contentType: 'text/plain',
      length: text.length,
      sha2: sha256(text),
    }
    const sent = { ...statement(), attachments: [attachment] } as Parameters<typeof xapi.sendStatement>[0]['statement']
    const [id] = (await xapi.sendStatement({ statement: sent, attachments: [new TextEncoder().encode(text).buffer as ArrayBuffer] })).data
    const got = await xapi.getStatement({ statementId: id, attachments: true })
    expect(got.data).toEqual([expect.objectContaining({ id }), text])
  })
})
