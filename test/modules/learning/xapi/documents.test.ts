import { createHash, randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { useOrg } from '../../../factories.js'
import { createCredential, type Lrs, lrs, query } from '../../../fixtures/xapi.js'

const t = useTestApp()
const org = useOrg(t)
let api: Lrs
beforeAll(async () => {
  api = lrs(t.app, await createCredential(org))
})

const agent = () => ({ objectType: 'Agent', mbox: `mailto:${randomUUID()}@example.test` })
const activityId = () => `https://courses.example.test/${randomUUID()}`
const sha1 = (text: string) => `"${createHash('sha1').update(text).digest('hex')}"`

describe('the State resource', () => {
  it('puts, gets with the ETag computed at write time, merges JSON by POST, lists ids, and deletes one or all', async () => {
    const scope = { activityId: activityId(), agent: agent(), registration: randomUUID() }
    const at = (stateId: string) => `/activities/state${query({ ...scope, stateId })}`
    expect((await api.put(at('bookmark'), { page: 3, done: false })).status).toBe(204)
    const got = await api.get(at('bookmark'))
    expect(got.status).toBe(200)
    expect(got.body).toEqual({ page: 3, done: false })
    expect(got.headers.etag).toBe(sha1(JSON.stringify({ page: 3, done: false })))
    const row = await t.database.db
      .selectFrom('xapi_documents')
      .select('etag')
      .where('organization_id', '=', org.id)
      .where('document_id', '=', 'bookmark')
      .executeTakeFirstOrThrow()
    expect(row.etag).toBe(got.headers.etag)

    expect((await api.post(at('bookmark'), { page: 4, score: 0.5 })).status).toBe(204)
    expect((await api.get(at('bookmark'))).body).toEqual({ page: 4, done: false, score: 0.5 })
    expect((await api.put(at('notes'), 'plain text', { 'content-type': 'text/plain' })).status).toBe(204)
    const notes = await api.get(at('notes'))
    expect([notes.text, notes.headers['content-type']]).toEqual(['plain text', 'text/plain'])
    expect((await api.post(at('notes'), { a: 1 })).status).toBe(400)

    expect((await api.get(`/activities/state${query(scope)}`)).body).toEqual(['bookmark', 'notes'])
    expect((await api.delete(at('notes'))).status).toBe(204)
    expect((await api.get(at('notes'))).status).toBe(404)
    expect((await api.delete(`/activities/state${query(scope)}`)).status).toBe(204)
    expect((await api.get(`/activities/state${query(scope)}`)).body).toEqual([])
  })

  it('refuses a missing or malformed agent, activityId or registration with 400', async () => {
    for (const params of [
      { activityId: activityId(), stateId: 's' },
      { agent: agent(), stateId: 's' },
      { activityId: activityId(), agent: { name: 'x' }, stateId: 's' },
      { activityId: activityId(), agent: agent(), registration: 'r', stateId: 's' },
    ]) {
      expect((await api.put(`/activities/state${query(params)}`, { a: 1 })).status).toBe(400)
    }
  })
})

describe('the profile resources', () => {
  for (const [path, scope] of [
    ['/activities/profile', () => ({ activityId: activityId() })],
    ['/agents/profile', () => ({ agent: agent() })],
  ] as const) {
    it(`${path}: If-None-Match to create, If-Match to replace, 409 without either, 412 on a stale ETag`, async () => {
      const params = { ...scope(), profileId: 'settings' }
      const at = `${path}${query(params)}`
      expect((await api.put(at, { v: 1 })).status).toBe(400)
      const created = await api.put(at, { v: 1 }, { 'if-none-match': '*' })
      expect(created.status).toBe(204)
      const etag = created.headers.etag as string
      expect(etag).toBe(sha1(JSON.stringify({ v: 1 })))
      expect((await api.put(at, { v: 2 }, { 'if-none-match': '*' })).status).toBe(412)
      expect((await api.put(at, { v: 2 })).status).toBe(409)
      expect((await api.put(at, { v: 2 }, { 'if-match': '"stale"' })).status).toBe(412)
      expect((await api.put(at, { v: 2 }, { 'if-match': etag })).status).toBe(204)
      expect((await api.get(at)).body).toEqual({ v: 2 })
      expect((await api.delete(at, { 'if-match': etag })).status).toBe(412)
      expect((await api.get(`${path}${query({ ...params, profileId: undefined })}`.replace('&profileId=undefined', ''))).body).toEqual([
        'settings',
      ])
      expect((await api.delete(at)).status).toBe(204)
      expect((await api.get(at)).status).toBe(404)
    })
  }
})

describe('activities and agents', () => {
  it('returns the definition merged from every statement, and a Person for an agent', async () => {
    const id = activityId()
    const statement = (name: Record<string, string>) => ({
      actor: agent(),
      verb: { id: 'http://adlnet.gov/expapi/verbs/experienced' },
      object: { id, definition: { name } },
    })
    expect((await api.post('/statements', [statement({ 'en-US': 'Meeting' }), statement({ 'fr-FR': 'Réunion' })])).status).toBe(200)
    expect((await api.get(`/activities${query({ activityId: id })}`)).body).toEqual({
      objectType: 'Activity',
      id,
      definition: { name: { 'en-US': 'Meeting', 'fr-FR': 'Réunion' } },
    })
    const someone = { ...agent(), name: 'Ada' }
    expect((await api.get(`/agents${query({ agent: someone })}`)).body).toEqual({
      objectType: 'Person',
      name: ['Ada'],
      mbox: [someone.mbox],
    })
    expect((await api.get('/agents')).status).toBe(400)
  })
})

describe('documents are data, never pages (DECISIONS §13.7)', () => {
  const NEVER_A_PAGE = {
    'content-disposition': 'attachment',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "sandbox; default-src 'none'",
  }
  const page = '<form action="https://attacker.example/login"><input name="password"></form>'

  it('answers every document, and every list of ids, as a download that runs nothing', async () => {
    const who = agent()
    const activity = activityId()
    const resources = [
      `/activities/state${query({ activityId: activity, agent: who, stateId: 'page' })}`,
      `/activities/profile${query({ activityId: activity, profileId: 'page' })}`,
      `/agents/profile${query({ agent: who, profileId: 'page' })}`,
    ]
    for (const at of resources) {
      expect((await api.put(at, page, { 'content-type': 'text/html', 'if-none-match': '*' })).status).toBe(204)
      const got = await api.get(at)
      expect(got.text).toBe(page)
      expect(got.headers).toMatchObject({ ...NEVER_A_PAGE, 'content-type': expect.stringMatching(/^text\/html/) })
      expect((await api.head(at)).headers).toMatchObject(NEVER_A_PAGE)
      const list = at.replace(/&(stateId|profileId)=page/, '')
      expect((await api.get(list)).headers).toMatchObject(NEVER_A_PAGE)
    }
  })

  it('answers the same through the alternate request syntax, as a cross-site form would reach it', async () => {
    const who = agent()
    const scope = { activityId: activityId(), agent: who, stateId: 'page' }
    expect((await api.put(`/activities/state${query(scope)}`, page, { 'content-type': 'text/html' })).status).toBe(204)
    const credential = await createCredential(org)
    const form = new URLSearchParams({
      ...Object.fromEntries(new URLSearchParams(query(scope).slice(1))),
      Authorization: `Basic ${Buffer.from(`${credential.key}:${credential.secret}`).toString('base64')}`,
      'X-Experience-API-Version': '1.0.3',
    })
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/learn/xapi/activities/state?method=GET',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://attacker.example' },
      payload: form.toString(),
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe(page)
    expect(res.headers).toMatchObject(NEVER_A_PAGE)
  })

  it('refuses a Content-Type form field no header can hold, so nothing stored breaks the answer', async () => {
    const credential = await createCredential(org)
    const scope = { activityId: activityId(), agent: agent(), stateId: 'split' }
    const form = new URLSearchParams({
      ...Object.fromEntries(new URLSearchParams(query(scope).slice(1))),
      Authorization: `Basic ${Buffer.from(`${credential.key}:${credential.secret}`).toString('base64')}`,
      'X-Experience-API-Version': '1.0.3',
      'Content-Type': 'text/html\r\nSet-Cookie: a=b',
      content: page,
    })
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/learn/xapi/activities/state?method=PUT',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    })
    expect(res.statusCode).toBe(400)
    expect((await api.get(`/activities/state${query(scope)}`)).status).toBe(404)
  })
})

describe('JSON documents nested too deep', () => {
  const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
  const json = { 'content-type': 'application/json' }

  it('stores and merges 64 levels, and refuses 65 and 5,000 with a 400 in PUT and in a merge', async () => {
    const scope = { activityId: activityId(), agent: agent() }
    const at = (stateId: string) => `/activities/state${query({ ...scope, stateId })}`
    expect((await api.put(at('ok'), deep(64), json)).status).toBe(204)
    expect((await api.post(at('ok'), `{"b":${deep(63)}}`, json)).status).toBe(204)
    for (const depth of [65, 5000]) {
      const put = await api.put(at(`deep-${depth}`), deep(depth), json)
      expect(put.body).toEqual({ error: true, message: 'The document nests objects and arrays deeper than 64' })
      expect((await api.post(at('ok'), deep(depth), json)).status).toBe(400)
      expect((await api.get(at(`deep-${depth}`))).status).toBe(404)
    }
    // The same bytes as another media type are opaque data, stored as they came.
    expect((await api.put(at('opaque'), deep(5000), { 'content-type': 'application/octet-stream' })).status).toBe(204)
  })
})
