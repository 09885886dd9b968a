import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildContentApp } from '../../../../../src/content-app.js'
import type { App } from '../../../../../src/modules/types.js'
import { buildTestApp, type TestApp } from '../../../../app.js'
import { createOrg, type TestOrg } from '../../../../factories.js'
import { packagedCourse } from '../../../../fixtures/launch.js'
import { enroll } from '../../../../fixtures/registrations.js'
import { scormBase as base, type ScormPlayer, scormPlayer } from '../../../../fixtures/scorm.js'

// The SCORM player's API (DECISIONS §13.4–13.5) as scorm-again calls it: the session credential from
// the launch URL's fragment, JSON commits, and the final commit as text/plain with the credential in the body.
let t: TestApp
let content: App
let org: TestOrg
let other: TestOrg
let player: ScormPlayer
beforeAll(async () => {
  t = await buildTestApp()
  content = await buildContentApp({ config: t.config, logger: false })
  org = await createOrg(t.app, t.database.db)
  other = await createOrg(t.app, t.database.db)
  player = scormPlayer(t)
})
afterAll(async () => {
  await content.close()
  await t.app.close()
})

type Standard = 'scorm12' | 'scorm2004'

async function scormRegistration(standard: Standard, masteryScore: number | null = null) {
  const { courseId } = await packagedCourse(t.database.db, org.id, [{ masteryScore, url: 'sco/index.html' }], { standard })
  return (await enroll(t.database.db, org.id, org.crew.id, { courseId })).registrationId
}

const launch = (registrationId: string) => player.launch(org.crew, registrationId)
const commit: ScormPlayer['commit'] = (...args) => player.commit(...args)
const finish: ScormPlayer['finish'] = (...args) => player.finish(...args)
const runtime: ScormPlayer['runtime'] = (...args) => player.runtime(...args)
const registration = async (id: string) => (await org.crew.api.get(`/api/v1/learn/registrations/${id}`)).body
const verbs = (registrationId: string) => player.verbs(org, registrationId)

describe('the SCORM player page', () => {
  it('is served on the content origin for a session token, with its scripts cached for good', async () => {
    const s = await launch(await scormRegistration('scorm12'))
    expect(s.url.origin).toBe(t.config.contentOrigin)
    expect(s.url.searchParams.get('sco')).toBe('sco/index.html')
    const page = await content.inject({ method: 'GET', url: s.url.pathname + s.url.search })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.body).not.toContain(s.secret)
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1])
    expect(scripts).toHaveLength(3)
    for (const src of scripts) {
      const script = await content.inject({ method: 'GET', url: src })
      expect(script.statusCode).toBe(200)
      expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    }
    expect((await content.inject({ method: 'GET', url: '/player/not-a-token' })).statusCode).toBe(404)
  })
})

describe('SCORM 1.2 commits', () => {
  it('a passed lesson with interactions passes the registration, once, with its statements', async () => {
    const registrationId = await scormRegistration('scorm12')
    const s = await launch(registrationId)
    const start = await runtime(s.session, s.auth)
    expect(start.statusCode).toBe(200)
    expect(start.json()).toMatchObject({
      standard: 'scorm12',
      launchMode: 'Normal',
      cmi: { core: { student_id: org.crew.id, lesson_mode: 'normal', credit: 'credit', entry: 'ab-initio' } },
    })
    expect(await commit(s.session, s.auth, { cmi: { core: { lesson_status: 'incomplete' } } })).toEqual({ result: 'true' })
    expect((await registration(registrationId)).status).toBe('in_progress')
    const cmi = {
      core: { lesson_status: 'passed', score: { raw: '90', min: '0', max: '100' }, session_time: '0000:02:05.00', exit: '' },
      interactions: {
        0: { id: 'q1', type: 'choice', student_response: 'b', result: 'correct' },
        1: { id: 'q2', type: 'true-false', student_response: 'f', result: 'wrong' },
      },
    }
    expect(await commit(s.session, s.auth, { cmi })).toEqual({ result: 'true' })
    expect(await finish(s, cmi)).toEqual({ result: 'true' })
    // The beacon's replay: accepted, counted once.
    expect(await finish(s, cmi)).toEqual({ result: 'true' })
    expect(await registration(registrationId)).toMatchObject({
      status: 'passed',
      score_percent: 90,
      attempt_count: 1,
      time_spent_seconds: 125,
    })
    const sessions = await org.crew.api.get(`/api/v1/learn/registrations/${registrationId}/sessions`)
    expect(sessions.body.items).toEqual([expect.objectContaining({ id: s.session, endedBy: 'terminated', durationSeconds: 125 })])
    const statements = await verbs(registrationId)
    expect(statements.map((st) => st.verb.id.split('/').at(-1))).toEqual([
      'initialized',
      'answered',
      'answered',
      'completed',
      'passed',
      'terminated',
    ])
    const answered = statements.filter((st) => st.verb.id.endsWith('answered'))
    expect(answered.map((st) => [st.object.definition?.type, st.result?.success])).toEqual([
      ['http://adlnet.gov/expapi/activities/cmi.interaction', true],
      ['http://adlnet.gov/expapi/activities/cmi.interaction', false],
    ])
    expect(statements.at(-1)?.result).toEqual({ duration: 'PT125S' })
  })

  it('a completed lesson under the mastery score fails the registration', async () => {
    const registrationId = await scormRegistration('scorm12', 0.8)
    const s = await launch(registrationId)
    expect((await runtime(s.session, s.auth)).json().cmi.student_data).toEqual({ mastery_score: '80' })
    await finish(s, { core: { lesson_status: 'completed', score: { raw: '60' } } })
    expect(await registration(registrationId)).toMatchObject({ status: 'failed', score_percent: 60, attempt_count: 1 })
    expect((await verbs(registrationId)).map((st) => st.verb.id.split('/').at(-1))).toEqual([
      'initialized',
      'completed',
      'failed',
      'terminated',
    ])
  })

  it('the next session resumes from the suspend data and location of the last', async () => {
    const registrationId = await scormRegistration('scorm12')
    const first = await launch(registrationId)
    await commit(first.session, first.auth, {
      cmi: { core: { lesson_status: 'incomplete', lesson_location: 'page-3', exit: 'suspend' }, suspend_data: 'a=1;b=2' },
    })
    await finish(first, { core: { lesson_status: 'incomplete', lesson_location: 'page-4', exit: 'suspend' }, suspend_data: 'a=1;b=3' })
    const second = await launch(registrationId)
    expect((await runtime(second.session, second.auth)).json().cmi).toMatchObject({
      core: { entry: 'resume', lesson_location: 'page-4' },
      suspend_data: 'a=1;b=3',
    })
    expect(await registration(registrationId)).toMatchObject({ status: 'in_progress', attempt_count: 1 })
  })
})

describe('SCORM 2004 commits', () => {
  it('success_status and completion_status pass; the scaled passing score decides over success_status', async () => {
    const passing = await scormRegistration('scorm2004')
    const s = await launch(passing)
    expect((await runtime(s.session, s.auth)).json().cmi).toMatchObject({ learner_id: org.crew.id, mode: 'normal', entry: 'ab-initio' })
    await finish(s, {
      completion_status: 'completed',
      success_status: 'passed',
      score: { raw: '7', min: '0', max: '10' },
      session_time: 'PT1M30S',
    })
    expect(await registration(passing)).toMatchObject({ status: 'passed', score_percent: 70, time_spent_seconds: 90 })

    const mastered = await scormRegistration('scorm2004', 0.8)
    const m = await launch(mastered)
    expect((await runtime(m.session, m.auth)).json().cmi.scaled_passing_score).toBe('0.8')
    // No session_time from the SCO: the runtime's total_time of the session counts.
    await finish(m, {
      completion_status: 'completed',
      success_status: 'passed',
      score: { scaled: '0.5' },
      session_time: 'PT0S',
      total_time: 'PT45S',
    })
    expect(await registration(mastered)).toMatchObject({ status: 'failed', score_percent: 50, time_spent_seconds: 45 })
  })
})

describe('the session credential', () => {
  it('is the only way in: a wrong secret, another session, an ended session and another organization are refused', async () => {
    const registrationId = await scormRegistration('scorm12')
    const s = await launch(registrationId)
    const wrong = `Basic ${Buffer.from(`session.${s.session}:nope`).toString('base64')}`
    expect(await commit(s.session, wrong, { cmi: { core: { lesson_status: 'passed' } } })).toMatchObject({
      result: 'false',
      errorCode: 101,
    })
    expect((await runtime(s.session, wrong)).statusCode).toBe(401)
    expect((await runtime(s.session, `Bearer ${org.crew.token}`)).statusCode).toBe(401)
    const otherRegistration = await scormRegistration('scorm12')
    const o = await launch(otherRegistration)
    expect(await commit(o.session, s.auth, { cmi: { core: { lesson_status: 'passed' } } })).toMatchObject({ result: 'false' })
    expect(await commit(s.session, s.auth, 'not json', 'text/plain')).toMatchObject({ result: 'false' })
    expect(await registration(registrationId)).toMatchObject({ status: 'in_progress', attempt_count: 0 })

    // A new launch abandons the session: its credential no longer commits.
    await launch(registrationId)
    expect(await commit(s.session, s.auth, { cmi: { core: { lesson_status: 'passed' } } })).toMatchObject({
      result: 'false',
      errorText: expect.stringContaining('ended'),
    })
    expect((await runtime(s.session, s.auth)).statusCode).toBe(403)
    expect(await registration(registrationId)).toMatchObject({ status: 'in_progress', attempt_count: 1 })

    // Another organization's people reach neither the registration nor the session.
    expect((await other.admin.api.post(`/api/v1/learn/registrations/${registrationId}/launch`, {})).status).toBe(404)
    expect((await other.admin.api.get(`/api/v1/learn/registrations/${registrationId}/sessions`)).status).toBe(404)
    expect(await commit(o.session, `Bearer ${other.admin.token}`, { cmi: { core: { lesson_status: 'passed' } } })).toMatchObject({
      result: 'false',
    })
  })

  it("is for the player's own URLs: the LRS does not take it (only a standard whose content writes xAPI has an LRS step)", async () => {
    const s = await launch(await scormRegistration('scorm2004'))
    const headers = { authorization: s.auth, 'x-experience-api-version': '1.0.3' }
    const read = await t.app.inject({ method: 'GET', url: '/api/v1/learn/xapi/statements', headers })
    expect(read.statusCode).toBe(401)
    const written = await t.app.inject({ method: 'POST', url: '/api/v1/learn/xapi/statements', headers, payload: [] })
    expect(written.statusCode).toBe(401)
    expect((await runtime(s.session, s.auth)).statusCode).toBe(200)
  })

  it('answers the CORS preflight of the content origin', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: `${base('0190a000-0000-7000-8000-000000000001')}/commit`,
      headers: {
        origin: t.config.contentOrigin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    })
    expect(preflight.statusCode).toBe(204)
    expect(preflight.headers['access-control-allow-headers']).toContain('authorization')
  })
})
