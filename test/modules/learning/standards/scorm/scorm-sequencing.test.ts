import { describe, expect, it } from 'vitest'
import { useImportApp } from '../../../../fixtures/import-app.js'
import { importPackage, zipOf } from '../../../../fixtures/packages.js'
import { enroll } from '../../../../fixtures/registrations.js'
import { type ScormSession, scormBase, scormPlayer } from '../../../../fixtures/scorm.js'
import { type ManifestItem, manifest2004 } from '../../../../fixtures/scorm-manifests.js'

// A SCORM 2004 course of several SCOs played in one launch (DECISIONS §13.6), through the player's API: the
// sequencing step that keeps the state and opens each delivered SCO's session, and the course decided by
// the root activity's rollup over each SCO's last session, evaluated as each session ends.

const app = useImportApp()
const PAGE = '<p>page</p>'

async function course(items: ManifestItem[], rootSequencing?: string) {
  const files = Object.fromEntries(items.map((item) => [item.href!, PAGE]))
  const job = await importPackage(
    app.t.app,
    app.org.admin.api,
    await zipOf({ 'imsmanifest.xml': manifest2004(items, { rootSequencing }), ...files }),
  )
  expect(job.status).toBe('complete')
  const { registrationId } = await enroll(app.t.database.db, app.org.id, app.org.crew.id, { courseId: job.courseId })
  return registrationId
}

const step = (s: { session: string; auth: string }, body: unknown) =>
  app.t.app.inject({
    method: 'POST',
    url: `${scormBase(s.session)}/sequencing`,
    headers: { authorization: s.auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  })
const basic = (session: string, secret: string) => `Basic ${Buffer.from(`session.${session}:${secret}`).toString('base64')}`
const registration = async (id: string) => (await app.org.crew.api.get(`/api/v1/learn/registrations/${id}`)).body

/** Delivers SCO `auIndex` from session `from` (fresh: the launch's own, unused), as the player does. */
async function deliver(from: { session: string; auth: string }, auIndex: number, fresh = false) {
  const answer = await step(from, { state: '{}', sharedData: {}, deliver: auIndex, ...(fresh && { fresh }) })
  expect(answer.statusCode).toBe(200)
  const { sessionId, secret } = answer.json()
  return secret ? { session: sessionId as string, auth: basic(sessionId, secret) } : { session: sessionId as string, auth: from.auth }
}

const THREE: ManifestItem[] = [
  { id: 'one', href: 'one.html' },
  { id: 'two', href: 'two.html' },
  { id: 'test', href: 'test.html' },
]
const completed = { completion_status: 'completed', exit: '' }
const passed = { completion_status: 'completed', success_status: 'passed', exit: '' }
const failed = { completion_status: 'completed', success_status: 'failed', exit: '' }

describe('the sequencing step', () => {
  it("gives the launch's unused session to the first SCO delivered, then a session of its own to each next one; the state is kept", async () => {
    const registrationId = await course(THREE)
    const player = scormPlayer(app.t)
    const launched: ScormSession = await player.launch(app.org.crew, registrationId)
    const start = (await player.runtime(launched.session, launched.auth)).json()
    expect(start.sequencing).toMatchObject({
      items: [
        { activityId: 'one', auIndex: 0, url: 'one.html', asset: false },
        { activityId: 'two', auIndex: 1, url: 'two.html', asset: false },
        { activityId: 'test', auIndex: 2, url: 'test.html', asset: false },
      ],
      state: null,
      sharedData: {},
      activityTree: { id: 'org', children: [{ id: 'one' }, { id: 'two' }, { id: 'test' }] },
    })
    const first = await deliver(launched, 1, true)
    expect(first.session).toBe(launched.session)
    expect((await player.runtime(first.session, first.auth)).json()).toMatchObject({ auIndex: 1 })
    expect(await player.finish(first, { ...completed, suspend_data: 'two-data' })).toEqual({ result: 'true' })
    const answer = await step(first, { state: '{"at":"test"}', sharedData: { notes: 'knots' }, deliver: 2 })
    expect(answer.statusCode).toBe(200)
    const { sessionId, secret } = answer.json()
    expect(sessionId).not.toBe(launched.session)
    const next = { session: sessionId, auth: basic(sessionId, secret) }
    expect((await player.runtime(next.session, next.auth)).json()).toMatchObject({
      auIndex: 2,
      sequencing: { state: '{"at":"test"}', sharedData: { notes: 'knots' } },
    })
    const sessions = await app.org.crew.api.get(`/api/v1/learn/registrations/${registrationId}/sessions`)
    expect(sessions.body.items.map((s: { auIndex: number }) => s.auIndex).sort()).toEqual([1, 2])
  })

  it('refuses a wrong credential (401), a bad body (422), a SCO past the last (422), a course without sequencing (409)', async () => {
    const registrationId = await course(THREE)
    const player = scormPlayer(app.t)
    const s = await player.launch(app.org.crew, registrationId)
    expect((await step({ ...s, auth: basic(s.session, 'wrong') }, { state: '', sharedData: {} })).statusCode).toBe(401)
    expect((await step(s, { state: 1, sharedData: {} })).statusCode).toBe(422)
    const past = await step(s, { state: '', sharedData: {}, deliver: 3 })
    expect([past.statusCode, past.json()]).toEqual([
      422,
      { detail: [{ loc: ['body', 'deliver'], msg: 'This course has 3 SCOs: 0 to 2', type: 'value_error' }] },
    ])
    const single = await course([{ id: 'only', href: 'only.html' }])
    const alone = await player.launch(app.org.crew, single)
    expect((await player.runtime(alone.session, alone.auth)).json().sequencing).toBeUndefined()
    expect((await step(alone, { state: '', sharedData: {} })).statusCode).toBe(409)
  })
})

describe('the course decided by rollup', () => {
  async function play(registrationId: string, results: [number, Record<string, string>][]) {
    const player = scormPlayer(app.t)
    let from = await player.launch(app.org.crew, registrationId)
    let fresh = true
    for (const [auIndex, cmi] of results) {
      from = { ...from, ...(await deliver(from, auIndex, fresh)) }
      fresh = false
      expect(await player.finish(from, cmi)).toEqual({ result: 'true' })
    }
  }

  it('without rollup rules every SCO must be satisfied: two of three leave it in progress, the third passes it', async () => {
    const registrationId = await course(THREE)
    await play(registrationId, [
      [0, completed],
      [1, completed],
    ])
    expect(await registration(registrationId)).toMatchObject({ status: 'in_progress', attempt_count: 2 })
    await play(registrationId, [[2, passed]])
    expect(await registration(registrationId)).toMatchObject({ status: 'passed', attempt_count: 3 })
  })

  it('a post-test that alone counts (the lessons roll up nothing): passing it passes the course, lessons unvisited', async () => {
    const lesson =
      '<imsss:sequencing><imsss:rollupRules rollupObjectiveSatisfied="false" rollupProgressCompletion="false"/></imsss:sequencing>'
    const items = THREE.map((item) => (item.id === 'test' ? item : { ...item, sequencing: lesson }))
    const registrationId = await course(items, '<imsss:sequencing><imsss:controlMode choice="true" flow="true"/></imsss:sequencing>')
    await play(registrationId, [[2, failed]])
    expect(await registration(registrationId)).toMatchObject({ status: 'failed', attempt_count: 1 })
    await play(registrationId, [[2, passed]])
    expect(await registration(registrationId)).toMatchObject({ status: 'passed', attempt_count: 2 })
  })

  it('lessons passed do not pass a course whose rollup counts only the post-test, not yet taken', async () => {
    const lesson =
      '<imsss:sequencing><imsss:rollupRules rollupObjectiveSatisfied="false" rollupProgressCompletion="false"/></imsss:sequencing>'
    const items = THREE.map((item) => (item.id === 'test' ? item : { ...item, sequencing: lesson }))
    const registrationId = await course(items)
    await play(registrationId, [
      [0, passed],
      [1, passed],
    ])
    expect(await registration(registrationId)).toMatchObject({ status: 'in_progress' })
  })
})
