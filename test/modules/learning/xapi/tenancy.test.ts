import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, useOrg } from '../../../factories.js'
import { createCredential, lrs, query, statement, storedRows, XAPI } from '../../../fixtures/xapi.js'

const t = useTestApp()
const org = useOrg(t)

describe('one LRS per organization', () => {
  it('stores the same statement id in two organizations as two statements, each seen only by its own', async () => {
    const other = await createOrg(t.app, t.database.db)
    const ours = lrs(t.app, await createCredential(org))
    const theirs = lrs(t.app, await createCredential(other))
    const id = randomUUID()
    const mine = statement({ id })
    const yours = statement({ id, verb: { id: 'http://adlnet.gov/expapi/verbs/failed' } })
    expect((await ours.post('/statements', mine)).status).toBe(200)
    expect((await theirs.post('/statements', yours)).status).toBe(200)
    expect((await ours.get(`/statements${query({ statementId: id })}`)).body.verb).toEqual(mine.verb)
    expect((await theirs.get(`/statements${query({ statementId: id })}`)).body.verb).toEqual(yours.verb)
    expect((await theirs.get(`/statements${query({ agent: mine.actor })}`)).body.statements).toEqual([])
    expect((await storedRows(t, org.id)).filter((row) => row.id === id)).toHaveLength(1)
    expect((await storedRows(t, other.id)).filter((row) => row.id === id)).toHaveLength(1)
    // Voiding in one organization leaves the other's statement alone.
    await theirs.post('/statements', {
      actor: yours.actor,
      verb: { id: 'http://adlnet.gov/expapi/verbs/voided' },
      object: { objectType: 'StatementRef', id },
    })
    expect((await ours.get(`/statements${query({ statementId: id })}`)).status).toBe(200)
  })

  it("reaches no other organization's documents or activity definitions", async () => {
    const other = await createOrg(t.app, t.database.db)
    const ours = lrs(t.app, await createCredential(org))
    const theirs = lrs(t.app, await createCredential(other))
    const agent = { mbox: `mailto:${randomUUID()}@example.test` }
    const activityId = `https://courses.example.test/${randomUUID()}`
    const places = [
      `/activities/state${query({ activityId, agent, stateId: 'bookmark' })}`,
      `/activities/profile${query({ activityId, profileId: 'p' })}`,
      `/agents/profile${query({ agent, profileId: 'p' })}`,
    ]
    for (const at of places) expect((await ours.put(at, { secret: 'ours' }, { 'if-none-match': '*' })).status).toBe(204)
    await ours.post('/statements', statement({ object: { id: activityId, definition: { name: { en: 'Ours' } } } }))
    for (const at of places) {
      expect((await theirs.get(at)).status).toBe(404)
      expect((await theirs.get(at.replace(/&(stateId|profileId)=[^&]*/, ''))).body).toEqual([])
      expect((await theirs.delete(at)).status).toBe(204)
      expect((await ours.get(at)).body).toEqual({ secret: 'ours' })
    }
    expect((await theirs.get(`/activities${query({ activityId })}`)).body).toEqual({ objectType: 'Activity', id: activityId })
  })
})

describe('scopes and callers', () => {
  it('statements/read/mine sees only what its own credential wrote; write-only cannot read; read-only cannot write', async () => {
    const writer = lrs(t.app, await createCredential(org, ['statements/write', 'statements/read/mine']))
    const someoneElse = lrs(t.app, await createCredential(org, ['all']))
    const actor = { mbox: `mailto:${randomUUID()}@example.test` }
    const [mineId] = (await writer.post('/statements', statement({ actor }))).body
    const [otherId] = (await someoneElse.post('/statements', statement({ actor }))).body
    expect((await writer.get(`/statements${query({ agent: actor })}`)).body.statements.map((s: { id: string }) => s.id)).toEqual([mineId])
    expect((await writer.get(`/statements${query({ statementId: otherId })}`)).status).toBe(404)
    expect((await lrs(t.app, await createCredential(org, ['statements/write'])).get('/statements')).status).toBe(403)
    const reader = lrs(t.app, await createCredential(org, ['all/read']))
    expect((await reader.post('/statements', statement())).status).toBe(403)
    expect(
      (await reader.put(`/activities/state${query({ activityId: 'https://x.test/a', agent: actor, stateId: 's' })}`, { a: 1 })).status,
    ).toBe(403)
    expect((await reader.get(`/statements${query({ agent: actor })}`)).body.statements).toHaveLength(2)
  })

  it("an admin's or office admin's bearer token reads statements; other roles and writes are refused", async () => {
    const actor = { mbox: `mailto:${randomUUID()}@example.test` }
    await lrs(t.app, await createCredential(org)).post('/statements', statement({ actor }))
    for (const user of [org.admin, org.officeAdmin]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `${XAPI}/statements${query({ agent: actor })}`,
        headers: { authorization: `Bearer ${user.token}`, 'x-experience-api-version': '1.0.3' },
      })
      expect(res.statusCode).toBe(200)
      expect(JSON.parse(res.body).statements).toHaveLength(1)
    }
    for (const user of [org.officeEmployee, org.crew]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `${XAPI}/statements`,
        headers: { authorization: `Bearer ${user.token}`, 'x-experience-api-version': '1.0.3' },
      })
      expect(res.statusCode).toBe(403)
    }
    const write = await t.app.inject({
      method: 'POST',
      url: `${XAPI}/statements`,
      headers: { authorization: `Bearer ${org.admin.token}`, 'x-experience-api-version': '1.0.3', 'content-type': 'application/json' },
      payload: JSON.stringify(statement()),
    })
    expect(write.statusCode).toBe(403)
  })
})
