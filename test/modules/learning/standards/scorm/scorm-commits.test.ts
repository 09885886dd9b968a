import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../../app.js'
import { createOrg } from '../../../../factories.js'
import { packagedCourse } from '../../../../fixtures/launch.js'
import { enroll } from '../../../../fixtures/registrations.js'
import { scormPlayer } from '../../../../fixtures/scorm.js'

// SCORM commits never answer 5xx (DECISIONS §13.7): text PostgreSQL cannot hold is kept with U+FFFD in its
// place; suspend_data past the standard's size, values of the wrong type and nesting no cmi has are refused
// with the standard's SCORM error (1.2: 405 incorrect data type, 2004: 406 type mismatch), HTTP 200.

const t = useTestApp()
const player = scormPlayer(t)

async function session(standard: 'scorm12' | 'scorm2004') {
  const org = await createOrg(t.app, t.database.db)
  const { courseId } = await packagedCourse(t.database.db, org.id, [{ url: 'sco/index.html' }], { standard })
  const { registrationId } = await enroll(t.database.db, org.id, org.crew.id, { courseId })
  return { org, registrationId, ...(await player.launch(org.crew, registrationId)) }
}

const kept = async (sessionId: string) =>
  (await t.database.db.selectFrom('learning_sessions').select('runtime').where('id', '=', sessionId).executeTakeFirstOrThrow()).runtime

describe('text PostgreSQL cannot hold', () => {
  it('is stored with U+FFFD for NUL and lone surrogates, in values and keys, and resumes so', async () => {
    const s = await session('scorm12')
    const cmi = {
      core: { lesson_status: 'incomplete', lesson_location: 'p\u0000ge', exit: 'suspend' },
      suspend_data: 'a\u0000b\ud800c\udc00d\ud83d\ude00',
      interactions: { 0: { id: 'q\ud800', type: 'choice', student_response: 'x\u0000', result: 'wrong' } },
      extra: { 'k\u0000': 'v' },
    }
    expect(await player.commit(s.session, s.auth, { cmi })).toEqual({ result: 'true' })
    expect(await kept(s.session)).toMatchObject({
      core: { lesson_location: 'p\ufffdge' },
      suspend_data: 'a\ufffdb\ufffdc\ufffdd\ud83d\ude00',
      interactions: { 0: { id: 'q\ufffd', student_response: 'x\ufffd' } },
      extra: { 'k\ufffd': 'v' },
    })
    const answered = (await player.verbs(s.org, s.registrationId)).find((st) => st.verb.id.endsWith('answered'))
    expect(answered?.object.id).toMatch(/\/interactions\/q%EF%BF%BD$/)
    expect(await player.finish(s, cmi)).toEqual({ result: 'true' })
    const next = await player.launch(s.org.crew, s.registrationId)
    expect((await player.runtime(next.session, next.auth)).json().cmi).toMatchObject({
      core: { entry: 'resume', lesson_location: 'p\ufffdge' },
      suspend_data: 'a\ufffdb\ufffdc\ufffdd\ud83d\ude00',
    })
  })
})

describe('commits refused with SCORM errors', () => {
  it.each([
    ['scorm12', 405, 4096],
    ['scorm2004', 406, 64_000],
  ] as const)('%s: suspend_data up to its size is kept, past it refused with %i', async (standard, code, size) => {
    const s = await session(standard)
    expect(await player.commit(s.session, s.auth, { cmi: { suspend_data: 'x'.repeat(size) } })).toEqual({ result: 'true' })
    expect(await player.commit(s.session, s.auth, { cmi: { suspend_data: 'y'.repeat(size + 1) } })).toEqual({
      result: 'false',
      errorCode: code,
      errorText: expect.stringContaining('cmi.suspend_data'),
    })
    expect(await player.finish(s, { suspend_data: 'z'.repeat(size + 1) })).toMatchObject({ result: 'false', errorCode: code })
    expect(await kept(s.session)).toEqual({ suspend_data: 'x'.repeat(size) })
    expect((await s.org.crew.api.get(`/api/v1/learn/registrations/${s.registrationId}`)).body.attempt_count).toBe(0)
  })

  /** The commit and the final commit of a cmi given as JSON text: each refused with the code, nothing kept. */
  async function refusedBoth(standard: 'scorm12' | 'scorm2004', code: number, cmi: string) {
    const s = await session(standard)
    expect(await player.commit(s.session, s.auth, `{"cmi":${cmi}}`)).toMatchObject({ result: 'false', errorCode: code })
    const final = `{"cmi":${cmi},"terminate":true,"auth":${JSON.stringify(s.auth)}}`
    expect(await player.commit(s.session, null, final, 'text/plain;charset=UTF-8')).toMatchObject({ result: 'false', errorCode: code })
    expect(await kept(s.session)).toBeNull()
  }

  it.each([
    ['scorm12', 405, { suspend_data: { a: 1 } }],
    ['scorm12', 405, { core: 'passed' }],
    ['scorm12', 405, { core: { lesson_status: 'aced' } }],
    ['scorm12', 405, { core: { lesson_status: 'passed', score: { raw: 'ninety' } } }],
    ['scorm12', 405, { core: { lesson_location: ['page-2'] } }],
    ['scorm12', 405, { interactions: 'q1' }],
    ['scorm12', 405, { interactions: { 0: { id: { toString: 1 }, result: 'correct' } } }],
    ['scorm12', 405, { interactions: [{ id: 'q1', result: 'wrong', student_response: { toString: 1 } }] }],
    ['scorm2004', 406, { success_status: true }],
    ['scorm2004', 406, { completion_status: 'done' }],
    ['scorm2004', 406, { score: { scaled: {} } }],
    ['scorm2004', 406, { location: null }],
    ['scorm2004', 406, { interactions: { 0: { id: 'q1', result: 'incorrect', learner_response: { toString: 1 } } } }],
  ] as const)('%s, SCORM error %i: %j', (standard, code, cmi) => refusedBoth(standard, code, JSON.stringify(cmi)))

  it.each([
    ['scorm12', 405, 'objectives', 10_000],
    ['scorm2004', 406, 'adl', 100_000],
  ] as const)('%s: refused with %i: cmi.%s nested %i deep', (standard, code, key, levels) =>
    // As JSON text: JSON.stringify cannot write nesting this deep.
    refusedBoth(standard, code, `{"${key}":${'{"a":'.repeat(levels)}1${'}'.repeat(levels + 1)}`),
  )

  it('a session time past what a duration holds is kept at the most', async () => {
    const s = await session('scorm2004')
    expect(await player.finish(s, { completion_status: 'completed', session_time: 'PT99999999999999S' })).toEqual({ result: 'true' })
    const registration = (await s.org.crew.api.get(`/api/v1/learn/registrations/${s.registrationId}`)).body
    expect(registration).toMatchObject({ status: 'passed', attempt_count: 1, time_spent_seconds: 2_147_483_647 })
  })
})
