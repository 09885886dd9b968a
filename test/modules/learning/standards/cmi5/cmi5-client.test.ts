import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../../../app.js'
import { createOrg, type TestOrg } from '../../../../factories.js'
import { launchParameters, loadCmi5 } from '../../../../fixtures/cmi5-client.js'
import { packagedCourse } from '../../../../fixtures/launch.js'
import { enroll } from '../../../../fixtures/registrations.js'
import { lrs } from '../../../../fixtures/xapi.js'

// The cmi5 client library @xapi/cmi5 as an AU would run it: over real HTTP, from the launch URL.
let Cmi5: Awaited<ReturnType<typeof loadCmi5>>
let t: TestApp
let org: TestOrg
let origin: string
beforeAll(async () => {
  Cmi5 = await loadCmi5()
  t = await buildTestApp()
  org = await createOrg(t.app, t.database.db)
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 })
})
afterAll(() => t.app.close())

describe('a cmi5 AU driven by @xapi/cmi5', () => {
  it('initializes, passes, completes and terminates: the registration passes with its score, time and attempt', async () => {
    const { courseId } = await packagedCourse(t.database.db, org.id, [{ moveOn: 'CompletedAndPassed', masteryScore: 0.8 }])
    const { registrationId } = await enroll(t.database.db, org.id, org.crew.id, { courseId })
    const launched = await org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/launch`, {})
    expect(launched.status).toBe(201)
    expect(launched.body).toMatchObject({ standard: 'cmi5', launchMethod: 'AnyWindow', sessionId: expect.any(String) })
    expect(launched.body.url.startsWith(`${t.config.contentOrigin}/content/`)).toBe(true)

    const au = new Cmi5(launchParameters(launched.body.url, t.config.publicUrl, origin))
    await au.initialize()
    expect(au.getLaunchData()).toMatchObject({ launchMode: 'Normal', moveOn: 'CompletedAndPassed', masteryScore: 0.8 })
    await au.pass(0.9)
    await au.complete()
    await au.terminate()

    const registration = await org.crew.api.get(`/api/v1/learn/registrations/${registrationId}`)
    expect(registration.body).toMatchObject({ status: 'passed', score_percent: 90, attempt_count: 1, completed_at: expect.any(String) })
    const sessions = await org.crew.api.get(`/api/v1/learn/registrations/${registrationId}/sessions`)
    expect(sessions.body.items).toEqual([expect.objectContaining({ id: launched.body.sessionId, endedBy: 'terminated', auIndex: 0 })])

    const reader = lrs(t.app, null)
    const statements = await reader.get(`/statements?registration=${registrationId}&ascending=true`, {
      authorization: `Bearer ${org.admin.token}`,
    })
    expect(statements.body.statements.map((s: { verb: { id: string } }) => s.verb.id.split('/').at(-1))).toEqual([
      'launched',
      'initialized',
      'passed',
      'completed',
      'satisfied',
      'terminated',
    ])
    const events = await t.database.db
      .selectFrom('events')
      .select('type')
      .where('organization_id', '=', org.id)
      .where('target_id', '=', registrationId)
      .execute()
    expect(events.map((e) => e.type)).toEqual(['registration.passed'])
  })
})
