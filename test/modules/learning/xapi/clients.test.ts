import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import XAPIModule from '@xapi/xapi'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { XAPI as BASE, createCredential } from '../../../fixtures/xapi.js'

// Real xAPI clients that nobody here wrote, over real HTTP (axios and Node's http). tincanjs 0.50 speaks up to xAPI 1.0.2.
const TinCan = createRequire(import.meta.url)('tincanjs')
// A CommonJS build: Vite hands over the class itself, which TypeScript sees under `default`.
const XAPI = XAPIModule as unknown as typeof XAPIModule.default

let t: TestApp
let org: TestOrg
let endpoint: string
beforeAll(async () => {
  t = await buildTestApp()
  endpoint = `${await t.app.listen({ host: '127.0.0.1', port: 0 })}${BASE}/`
  org = await createOrg(t.app, t.database.db)
})
afterAll(() => t.app.close())

const person = () => ({ objectType: 'Agent' as const, name: 'Ada Seafarer', mbox: `mailto:${randomUUID()}@example.test` })
const completed = { id: 'http://adlnet.gov/expapi/verbs/completed', display: { 'en-US': 'completed' } }

describe('@xapi/xapi', () => {
  it('sends statements and a batch, pages with more, voids, and keeps state and agent profiles', async () => {
    const credential = await createCredential(org)
    const xapi = new XAPI({ endpoint, auth: XAPI.toBasicAuth(credential.key, credential.secret), version: '1.0.3' })
    const actor = person()
    const activity = { objectType: 'Activity' as const, id: `https://courses.example.test/${randomUUID()}` }
    const [firstId] = (await xapi.sendStatement({ statement: { actor, verb: completed, object: activity } })).data
    const batch = Array.from({ length: 4 }, () => ({ actor, verb: completed, object: activity }))
    expect((await xapi.sendStatements({ statements: batch })).data).toHaveLength(4)

    const first = (await xapi.getStatements({ agent: actor, limit: 2 })).data
    expect(first.statements).toHaveLength(2)
    // getMoreStatements is typed for either answer; without attachments it is a StatementResult.
    const next = async (more: string) => (await xapi.getMoreStatements({ more })).data as typeof first
    const second = await next(first.more as string)
    const third = await next(second.more as string)
    expect([...first.statements, ...second.statements, ...third.statements].map((s) => s.id).at(-1)).toBe(firstId)
    expect(third.more).toBe('')

    await xapi.voidStatement({ actor, statementId: firstId })
    expect((await xapi.getVoidedStatement({ voidedStatementId: firstId })).data.id).toBe(firstId)
    await expect(xapi.getStatement({ statementId: firstId })).rejects.toMatchObject({ response: { status: 404 } })

    const registration = randomUUID()
    await xapi.setState({ agent: actor, activityId: activity.id, stateId: 'bookmark', registration, state: { page: 7 } })
    expect((await xapi.getState({ agent: actor, activityId: activity.id, stateId: 'bookmark', registration })).data).toEqual({ page: 7 })
    await xapi.createAgentProfile({ agent: actor, profileId: 'prefs', profile: { language: 'de' } })
    const profile = await xapi.getAgentProfile({ agent: actor, profileId: 'prefs' })
    expect(profile.data).toEqual({ language: 'de' })
    await xapi.setAgentProfile({
      agent: actor,
      profileId: 'prefs',
      profile: { language: 'en' },
      etag: profile.headers.etag,
      matchHeader: 'If-Match',
    })
    expect((await xapi.getAgentProfile({ agent: actor, profileId: 'prefs' })).data).toEqual({ language: 'en' })
  })

  it("cannot see a statement written with another organization's credentials", async () => {
    const other = await createOrg(t.app, t.database.db)
    const ours = await createCredential(org)
    const theirs = await createCredential(other)
    const writer = new XAPI({ endpoint, auth: XAPI.toBasicAuth(ours.key, ours.secret), version: '1.0.3' })
    const reader = new XAPI({ endpoint, auth: XAPI.toBasicAuth(theirs.key, theirs.secret), version: '1.0.3' })
    const actor = person()
    const [id] = (
      await writer.sendStatement({
        statement: { actor, verb: completed, object: { objectType: 'Activity', id: 'https://courses.example.test/a' } },
      })
    ).data
    await expect(reader.getStatement({ statementId: id })).rejects.toMatchObject({ response: { status: 404 } })
    expect((await reader.getStatements({ agent: actor })).data.statements).toEqual([])
  })
})

/** tincanjs answers through callbacks: (error, result). */
const call = <T>(run: (callback: (error: unknown, result: T) => void) => void) =>
  new Promise<T>((resolve, reject) => run((error, result) => (error ? reject(error) : resolve(result))))

describe('tincanjs', () => {
  it('saves statements, queries and pages with more, and saves and reads state', async () => {
    const credential = await createCredential(org)
    const lrs = new TinCan.LRS({ endpoint, username: credential.key, password: credential.secret, allowFail: false })
    const actor = new TinCan.Agent(person())
    const verb = new TinCan.Verb(completed)
    const target = new TinCan.Activity({ id: `https://courses.example.test/${randomUUID()}` })
    const one = new TinCan.Statement({ actor, verb, target })
    await call((callback) => lrs.saveStatement(one, { callback }))
    const more = [1, 2, 3].map(() => new TinCan.Statement({ actor, verb, target }))
    await call((callback) => lrs.saveStatements(more, { callback }))
    const page = await call<any>((callback) => lrs.queryStatements({ params: { agent: actor, limit: 3 }, callback }))
    expect(page.statements).toHaveLength(3)
    const rest = await call<any>((callback) => lrs.moreStatements({ url: page.more, callback }))
    expect(rest.statements.map((s: { id: string }) => s.id)).toEqual([one.id])
    const got = await call<any>((callback) => lrs.retrieveStatement(one.id, { callback }))
    expect(got.verb.id).toBe(completed.id)

    await call((callback) =>
      lrs.saveState('suspend', { lesson: 2 }, { agent: actor, activity: target, contentType: 'application/json', callback }),
    )
    const state = await call<any>((callback) => lrs.retrieveState('suspend', { agent: actor, activity: target, callback }))
    expect(state.contents).toEqual({ lesson: 2 })
  })
})
