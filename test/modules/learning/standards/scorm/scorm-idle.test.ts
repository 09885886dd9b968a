import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../../app.js'
import { createOrg, type TestOrg } from '../../../../factories.js'
import { packagedCourse } from '../../../../fixtures/launch.js'
import { enroll } from '../../../../fixtures/registrations.js'
import { scormBase, scormPlayer } from '../../../../fixtures/scorm.js'

// A SCO that never calls the API (DECISIONS §13.6): its player asks for its session to end once
// SCORM_IDLE_SECONDS have passed since launch, and the service checks that rule itself. The seconds are
// configuration, so no test waits: 0 here (any session is past it), the default 300 (none is).

let idleNow: TestApp
let idleLater: TestApp
let org: TestOrg
let laterOrg: TestOrg
beforeAll(async () => {
  idleNow = await buildTestApp({ SCORM_IDLE_SECONDS: '0' })
  idleLater = await buildTestApp()
  org = await createOrg(idleNow.app, idleNow.database.db)
  laterOrg = await createOrg(idleLater.app, idleLater.database.db)
})
afterAll(async () => {
  await idleNow.app.close()
  await idleLater.app.close()
})

async function launched(t: TestApp, o: TestOrg) {
  const { courseId } = await packagedCourse(t.database.db, o.id, [{ masteryScore: null, url: 'sco/index.html' }], { standard: 'scorm2004' })
  const { registrationId } = await enroll(t.database.db, o.id, o.crew.id, { courseId })
  return { registrationId, s: await scormPlayer(t).launch(o.crew, registrationId) }
}
const idle = (t: TestApp, s: { session: string; auth: string }) =>
  t.app.inject({ method: 'POST', url: `${scormBase(s.session)}/idle`, headers: { authorization: s.auth } })

describe('an idle SCO', () => {
  it('past SCORM_IDLE_SECONDS without an API call: its session ends abandoned, one attempt; the runtime tells the player the seconds', async () => {
    const { registrationId, s } = await launched(idleNow, org)
    expect((await scormPlayer(idleNow).runtime(s.session, s.auth)).json()).toMatchObject({ idleSeconds: 0 })
    const answer = await idle(idleNow, s)
    expect(answer.statusCode).toBe(200)
    expect(answer.json()).toEqual({ endedBy: 'abandoned' })
    const row = await idleNow.database.db
      .selectFrom('learning_sessions')
      .select(['ended_by', 'ended_at'])
      .where('id', '=', s.session)
      .executeTakeFirstOrThrow()
    expect(row.ended_by).toBe('abandoned')
    expect((await org.crew.api.get(`/api/v1/learn/registrations/${registrationId}`)).body).toMatchObject({
      status: 'in_progress',
      attempt_count: 1,
    })
    expect((await idle(idleNow, s)).json()).toMatchObject({ detail: 'This launch session has already ended (abandoned)' })
  })

  it('a SCO that has called the API is never idle (409); nor one launched less than SCORM_IDLE_SECONDS ago (409); a wrong credential is 401', async () => {
    const { s } = await launched(idleNow, org)
    expect(await scormPlayer(idleNow).commit(s.session, s.auth, { cmi: { completion_status: 'incomplete' } })).toEqual({ result: 'true' })
    const working = await idle(idleNow, s)
    expect(working.statusCode).toBe(409)
    expect(working.json()).toMatchObject({ detail: 'The content has called the API: it is not idle' })
    const fresh = (await launched(idleLater, laterOrg)).s
    const early = await idle(idleLater, fresh)
    expect(early.statusCode).toBe(409)
    expect(early.json()).toMatchObject({ detail: 'The content may take 300 seconds to start' })
    expect(
      (await idle(idleLater, { ...fresh, auth: `Basic ${Buffer.from(`session.${fresh.session}:nope`).toString('base64')}` })).statusCode,
    ).toBe(401)
    const row = await idleLater.database.db
      .selectFrom('learning_sessions')
      .select('ended_at')
      .where('id', '=', fresh.session)
      .executeTakeFirstOrThrow()
    expect(row.ended_at).toBeNull()
  })
})
