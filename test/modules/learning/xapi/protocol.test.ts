import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto'
import { CompactSign, importPKCS8 } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { useOrg } from '../../../factories.js'
import { type Credential, createCredential, type Lrs, lrs, query, statement, XAPI } from '../../../fixtures/xapi.js'

const t = useTestApp()
const org = useOrg(t)
let api: Lrs
let credential: Credential
beforeAll(async () => {
  credential = await createCredential(org)
  api = lrs(t.app, credential)
})

const BOUNDARY = 'xapi-test-boundary'
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex')

function multipart(json: unknown, parts: { contentType: string; content: Buffer | string; hash?: string }[]): Buffer {
  const chunks = [`--${BOUNDARY}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(json)}\r\n`]
  for (const part of parts) {
    chunks.push(
      `--${BOUNDARY}\r\nContent-Type: ${part.contentType}\r\nContent-Transfer-Encoding: binary\r\nX-Experience-API-Hash: ${part.hash ?? sha256(part.content)}\r\n\r\n${part.content}\r\n`,
    )
  }
  return Buffer.from(`${chunks.join('')}--${BOUNDARY}--\r\n`)
}
const mixed = { 'content-type': `multipart/mixed; boundary=${BOUNDARY}` }

describe('attachments', () => {
  it('stores attachments sent in multipart/mixed and returns them with attachments=true', async () => {
    const text = 'Certificate of completion'
    const sent = statement({
      attachments: [
        {
          usageType: 'http://id.tincanapi.com/attachment/certificate',
          display: { en: 'Certificate' },
          contentType: 'text/plain',
          length: text.length,
          sha2: sha256(text),
        },
      ],
    })
    const res = await api.post('/statements', multipart(sent, [{ contentType: 'text/plain', content: text }]), mixed)
    expect(res.status).toBe(200)
    const plain = await api.get(`/statements${query({ statementId: res.body[0] })}`)
    expect(plain.headers['content-type']).toMatch(/^application\/json/)
    const withParts = await api.get(`/statements${query({ statementId: res.body[0], attachments: 'true' })}`)
    expect(withParts.headers['content-type']).toMatch(/^multipart\/mixed; boundary=/)
    expect(withParts.text).toContain(`X-Experience-API-Hash: ${sha256(text)}\r\n\r\n${text}\r\n`)
  })

  it('refuses a missing part, a part no statement names and a part whose hash is wrong', async () => {
    const text = 'x'
    const sent = statement({
      attachments: [{ usageType: 'http://x.test/u', display: { en: 'X' }, contentType: 'text/plain', length: 1, sha2: sha256(text) }],
    })
    expect((await api.post('/statements', sent)).status).toBe(400)
    expect((await api.post('/statements', multipart(statement(), [{ contentType: 'text/plain', content: text }]), mixed)).status).toBe(400)
    expect(
      (await api.post('/statements', multipart(sent, [{ contentType: 'text/plain', content: text, hash: sha256('y') }]), mixed)).status,
    ).toBe(400)
  })
})

describe('signed statements', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string

  async function signed(alg: string, payloadOf: (s: Record<string, unknown>) => unknown = (s) => s) {
    const base = statement({ id: randomUUID() })
    const key = alg.startsWith('RS') ? await importPKCS8(pem, alg) : new TextEncoder().encode('a shared secret of thirty-two bytes!')
    const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payloadOf(base)))).setProtectedHeader({ alg }).sign(key)
    const attachment = {
      usageType: 'http://adlnet.gov/expapi/attachments/signature',
      display: { en: 'Signature' },
      contentType: 'application/octet-stream',
      length: jws.length,
      sha2: sha256(jws),
    }
    return api.post(
      '/statements',
      multipart({ ...base, attachments: [attachment] }, [{ contentType: 'application/octet-stream', content: jws }]),
      mixed,
    )
  }

  it('accepts RS256, RS384 and RS512 over the statement itself', async () => {
    for (const alg of ['RS256', 'RS384', 'RS512']) expect((await signed(alg)).status, alg).toBe(200)
  })

  it('refuses another algorithm, a payload that is another statement, and bytes that are not a JWS', async () => {
    expect((await signed('HS256')).status).toBe(400)
    expect((await signed('RS256', (s) => ({ ...s, verb: { id: 'http://adlnet.gov/expapi/verbs/passed' } }))).status).toBe(400)
    const base = statement()
    const attachment = {
      usageType: 'http://adlnet.gov/expapi/attachments/signature',
      display: { en: 'S' },
      contentType: 'application/octet-stream',
      length: 3,
      sha2: sha256('abc'),
    }
    expect(
      (
        await api.post(
          '/statements',
          multipart({ ...base, attachments: [attachment] }, [{ contentType: 'application/octet-stream', content: 'abc' }]),
          mixed,
        )
      ).status,
    ).toBe(400)
  })
})

describe('the HTTP protocol', () => {
  it('takes the alternate request syntax: a POST with method, headers and content as a form', async () => {
    const id = randomUUID()
    const auth = `Basic ${Buffer.from(`${credential.key}:${credential.secret}`).toString('base64')}`
    const form = new URLSearchParams({
      statementId: id,
      content: JSON.stringify(statement()),
      'X-Experience-API-Version': '1.0.3',
      Authorization: auth,
    })
    const res = await t.app.inject({
      method: 'POST',
      url: `${XAPI}/statements?method=PUT`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    })
    expect(res.statusCode).toBe(204)
    expect((await api.get(`/statements${query({ statementId: id })}`)).status).toBe(200)
    const extra = await t.app.inject({
      method: 'POST',
      url: `${XAPI}/statements?method=PUT&statementId=${id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    })
    expect(extra.statusCode).toBe(400)
  })

  it('needs a 1.0.x version header everywhere but about, and answers 1.0.3 always', async () => {
    expect((await api.get('/statements', { 'x-experience-api-version': '0.95' })).status).toBe(400)
    const missing = await t.app.inject({
      method: 'GET',
      url: `${XAPI}/statements`,
      headers: { authorization: `Basic ${Buffer.from(`${credential.key}:${credential.secret}`).toString('base64')}` },
    })
    expect(missing.statusCode).toBe(400)
    expect(missing.headers['x-experience-api-version']).toBe('1.0.3')
    for (const version of ['1.0.0', '1.0.1', '1.0.2', '1.0.3'])
      expect((await api.get('/statements', { 'x-experience-api-version': version })).status).toBe(200)
    const about = await t.app.inject({ method: 'GET', url: `${XAPI}/about` })
    expect([about.statusCode, JSON.parse(about.body)]).toEqual([200, { version: ['1.0.3', '1.0.2', '1.0.1', '1.0.0'], extensions: {} }])
  })

  it('opens CORS to any origin, preflight included', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: `${XAPI}/statements`,
      headers: { origin: 'https://content.example.test', 'access-control-request-method': 'PUT' },
    })
    expect(preflight.statusCode).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe('https://content.example.test')
    expect(preflight.headers['access-control-allow-headers']).toContain('authorization')
    const get = await api.get('/statements', { origin: 'https://content.example.test' })
    expect(get.headers['access-control-allow-origin']).toBe('https://content.example.test')
    expect(get.headers['access-control-expose-headers']).toContain('x-experience-api-consistent-through')
  })
})
