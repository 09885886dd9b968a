import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { useOrg } from '../../../factories.js'
import { type Credential, createCredential, type Lrs, lrs, query, statement, storedRows } from '../../../fixtures/xapi.js'

const t = useTestApp()
const org = useOrg(t)
let api: Lrs
let credential: Credential
beforeAll(async () => {
  credential = await createCredential(org)
  api = lrs(t.app, credential)
})

const VOIDED = 'http://adlnet.gov/expapi/verbs/voided'

describe('storing statements', () => {
  it('stores a POSTed statement with its id, stored, timestamp, version and the authority the LRS sets', async () => {
    const sent = { ...statement(), authority: { mbox: 'mailto:forged@example.test' } }
    const res = await api.post('/statements', sent)
    expect(res.status).toBe(200)
    expect(res.body).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)])
    const got = await api.get(`/statements${query({ statementId: res.body[0] })}`)
    expect(got.status).toBe(200)
    const { authority: _forged, ...rest } = sent
    expect(got.body).toEqual({
      ...rest,
      id: res.body[0],
      stored: expect.any(String),
      timestamp: got.body.stored,
      version: '1.0.0',
      authority: { objectType: 'Agent', name: 'Test client', account: { homePage: t.config.publicUrl, name: credential.key } },
    })
    const rows = await storedRows(t, org.id)
    expect(rows.find((row) => row.id === res.body[0])?.credential_id).toBe(credential.id)
  })

  it('PUTs a statement by id: 204, the same again 204 (stored once), other content 409', async () => {
    const id = randomUUID()
    const sent = statement()
    expect((await api.put(`/statements${query({ statementId: id })}`, sent)).status).toBe(204)
    expect((await api.put(`/statements${query({ statementId: id })}`, sent)).status).toBe(204)
    const conflict = await api.put(`/statements${query({ statementId: id })}`, {
      ...sent,
      verb: { id: 'http://adlnet.gov/expapi/verbs/passed' },
    })
    expect(conflict.status).toBe(409)
    expect((await storedRows(t, org.id)).filter((row) => row.id === id)).toHaveLength(1)
    expect((await api.put(`/statements${query({ statementId: randomUUID() })}`, { ...sent, id: randomUUID() })).status).toBe(400)
  })

  it('refuses an invalid statement with a 400 naming the field, and a batch with one bad statement stores nothing', async () => {
    const bad = await api.post('/statements', { ...statement(), actor: { mbox: 'not-an-email' } })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ error: true, message: expect.stringContaining('statement.actor.mbox') })
    const good = { ...statement(), id: randomUUID() }
    const batch = await api.post('/statements', [good, { ...statement(), verb: { id: 'not an iri' } }])
    expect(batch.status).toBe(400)
    expect(batch.body.message).toContain('statements[1]')
    expect((await storedRows(t, org.id)).some((row) => row.id === good.id)).toBe(false)
    for (const [body, rule] of [
      [{ ...statement(), version: '2.0.0' }, 'version'],
      [{ ...statement(), extra: 1 }, 'properties'],
      [{ ...statement(), result: { duration: 'an hour' } }, 'duration'],
      [[good, good], 'same id'],
    ] as const) {
      const res = await api.post('/statements', body)
      expect(res.status, rule).toBe(400)
    }
    expect((await api.post('/statements', 'not json', { 'content-type': 'application/json' })).status).toBe(400)
    expect((await api.post('/statements', JSON.stringify(statement()), { 'content-type': 'text/plain' })).status).toBe(400)
  })

  it('returns a single context activity as an array', async () => {
    const sent = statement({ context: { contextActivities: { parent: { id: 'https://courses.example.test/parent' } } } })
    const [id] = (await api.post('/statements', sent)).body
    expect((await api.get(`/statements${query({ statementId: id })}`)).body.context.contextActivities.parent).toEqual([
      { id: 'https://courses.example.test/parent' },
    ])
  })

  it('voids: the target is hidden from statementId and queries, found by voidedStatementId; a voiding statement cannot be voided', async () => {
    const target = statement()
    const [targetId] = (await api.post('/statements', target)).body
    const voiding = { actor: target.actor, verb: { id: VOIDED }, object: { objectType: 'StatementRef', id: targetId } }
    const [voidingId] = (await api.post('/statements', voiding)).body
    expect((await api.get(`/statements${query({ statementId: targetId })}`)).status).toBe(404)
    expect((await api.get(`/statements${query({ voidedStatementId: targetId })}`)).body.id).toBe(targetId)
    expect((await api.get(`/statements${query({ voidedStatementId: voidingId })}`)).status).toBe(404)
    // The voiding statement matches the filters its target matches.
    const listed = await api.get(`/statements${query({ agent: target.actor })}`)
    expect(listed.body.statements.map((s: { id: string }) => s.id)).toEqual([voidingId])
    const again = await api.post('/statements', { ...voiding, object: { objectType: 'StatementRef', id: voidingId } })
    expect(again.status).toBe(400)
    expect((await storedRows(t, org.id)).find((row) => row.id === targetId)?.voided).toBe(true)
  })

  it('keeps statements append-only in the database: UPDATE and DELETE are refused, voiding aside', async () => {
    const [id] = (await api.post('/statements', statement())).body
    const update = sql`update xapi_statements set verb_id = 'x' where organization_id = ${org.id} and id = ${id}`.execute(t.database.db)
    await expect(update).rejects.toThrow(/append-only/)
    await expect(sql`delete from xapi_statements where organization_id = ${org.id} and id = ${id}`.execute(t.database.db)).rejects.toThrow(
      /append-only/,
    )
    expect((await storedRows(t, org.id)).find((row) => row.id === id)?.voided).toBe(false)
  })
})

describe('querying statements', () => {
  it('filters by agent, verb, activity, registration, related agents and activities, since and until; newest first or ascending', async () => {
    const learner = { mbox: `mailto:${randomUUID()}@example.test` }
    const instructor = { mbox: `mailto:${randomUUID()}@example.test` }
    const registration = randomUUID()
    const activity = `https://courses.example.test/${randomUUID()}`
    const first = statement({ actor: learner, object: { id: activity }, context: { registration, instructor } })
    const second = statement({
      actor: learner,
      verb: { id: 'http://adlnet.gov/expapi/verbs/passed' },
      context: { contextActivities: { grouping: [{ id: activity }] } },
    })
    const [firstId] = (await api.post('/statements', first)).body
    const [secondId] = (await api.post('/statements', second)).body
    const ids = async (params: Record<string, unknown>) =>
      (await api.get(`/statements${query(params)}`)).body.statements.map((s: { id: string }) => s.id)
    expect(await ids({ agent: learner })).toEqual([secondId, firstId])
    expect(await ids({ agent: learner, ascending: 'true' })).toEqual([firstId, secondId])
    expect(await ids({ agent: learner, verb: 'http://adlnet.gov/expapi/verbs/passed' })).toEqual([secondId])
    expect(await ids({ activity })).toEqual([firstId])
    expect(await ids({ activity, related_activities: 'true' })).toEqual([secondId, firstId])
    expect(await ids({ registration })).toEqual([firstId])
    expect(await ids({ agent: instructor })).toEqual([])
    expect(await ids({ agent: instructor, related_agents: 'true' })).toEqual([firstId])
    const stored = (await api.get(`/statements${query({ statementId: firstId })}`)).body.stored
    expect(await ids({ agent: learner, since: stored })).toEqual([secondId])
    expect(await ids({ agent: learner, until: stored })).toEqual([firstId])
  })

  it('refuses unknown, repeated and malformed parameters with 400, and still says how consistent it is', async () => {
    for (const path of [
      '?foo=1',
      '?limit=-1',
      '?since=yesterday',
      '?agent=%7B%7D',
      '?format=full',
      '?statementId=1',
      '?statementId=x&limit=1',
      '?verb=a&verb=b',
    ].map((q) => `/statements${q}`)) {
      const res = await api.get(path)
      expect(res.status, path).toBe(400)
      expect(res.headers['x-experience-api-consistent-through'], path).toEqual(expect.any(String))
    }
  })

  it('pages with more: stable while others write, every statement once, the bound pinned', async () => {
    const actor = { mbox: `mailto:${randomUUID()}@example.test` }
    const written = []
    for (let i = 0; i < 5; i++) written.push(...(await api.post('/statements', statement({ actor }))).body)
    const first = await api.get(`/statements${query({ agent: actor, limit: '2' })}`)
    expect(first.body.more).toMatch(/^\/api\/v1\/learn\/xapi\/statements\?more=/)
    await api.post('/statements', statement({ actor }))
    const seen = [...first.body.statements]
    let more = first.body.more
    while (more) {
      const page = await api.get(more.replace('/api/v1/learn/xapi', ''))
      expect(page.status).toBe(200)
      seen.push(...page.body.statements)
      more = page.body.more
    }
    expect(seen.map((s) => s.id)).toEqual([...written].reverse())
    expect(Date.parse(first.headers['x-experience-api-consistent-through'] as string)).toBeGreaterThanOrEqual(Date.parse(seen[0].stored))
  })

  it('formats: ids keeps identifiers only, canonical one language by Accept-Language, exact as stored', async () => {
    const sent = statement()
    const [id] = (await api.post('/statements', sent)).body
    const ids = (await api.get(`/statements${query({ statementId: id, format: 'ids' })}`)).body
    expect(ids.actor).toEqual({ objectType: 'Agent', mbox: sent.actor.mbox })
    expect(ids.verb).toEqual({ id: sent.verb.id })
    expect(ids.object).toEqual({ id: sent.object.id })
    const canonical = (
      await api.get(`/statements${query({ statementId: id, format: 'canonical' })}`, { 'accept-language': 'de-DE, en;q=0.5' })
    ).body
    expect(canonical.verb.display).toEqual({ 'de-DE': 'abgeschlossen' })
    expect((await api.get(`/statements${query({ statementId: id })}`)).body.verb.display).toEqual(sent.verb.display)
  })

  it('answers HEAD like GET without a body', async () => {
    const [id] = (await api.post('/statements', statement())).body
    const head = await api.head(`/statements${query({ statementId: id })}`)
    expect(head.status).toBe(200)
    expect(head.text).toBe('')
    expect(head.headers['x-experience-api-version']).toBe('1.0.3')
  })
})
