import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../../../app.js'
import { useOrg } from '../../../../factories.js'
import { launchAu } from '../../../../fixtures/cmi5-session.js'
import { packagedCourse } from '../../../../fixtures/launch.js'
import { enroll } from '../../../../fixtures/registrations.js'

// cmi5's statement rules (§9.3) as the LMS enforces them on a session's credential: a statement that
// breaks one is refused with 403 and nothing of its batch is stored.
const t = useTestApp()
const org = useOrg(t)

async function session(aus: Parameters<typeof packagedCourse>[2] = [{ moveOn: 'Passed', masteryScore: 0.7 }], body = {}) {
  const { courseId } = await packagedCourse(t.database.db, org.id, aus)
  const { registrationId } = await enroll(t.database.db, org.id, org.crew.id, { courseId })
  return { registrationId, au: await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId, body) }
}

const registration = async (id: string) => (await org.admin.api.get(`/api/v1/learn/registrations/${id}`)).body

describe('cmi5 statement rules on a session credential', () => {
  it('refuses anything before initialized, and a second initialized', async () => {
    const { au } = await session()
    expect((await au.lrs.post('/statements', au.statement('completed'))).status).toBe(403)
    expect((await au.lrs.post('/statements', au.statement('initialized'))).status).toBe(200)
    expect((await au.lrs.post('/statements', au.statement('initialized'))).status).toBe(403)
  })

  it('refuses a pass below the masteryScore, a fail at or above it, and either without the masteryScore extension', async () => {
    const { au, registrationId } = await session()
    await au.lrs.post('/statements', au.statement('initialized'))
    expect((await au.lrs.post('/statements', au.statement('passed', { score: 0.5, masteryScore: 0.7 }))).status).toBe(403)
    expect((await au.lrs.post('/statements', au.statement('failed', { score: 0.7, masteryScore: 0.7 }))).status).toBe(403)
    expect((await au.lrs.post('/statements', au.statement('passed', { score: 0.9 }))).status).toBe(403)
    expect((await registration(registrationId)).status).toBe('in_progress')
    expect((await au.lrs.post('/statements', au.statement('passed', { score: 0.9, masteryScore: 0.7 }))).status).toBe(200)
    expect(await registration(registrationId)).toMatchObject({ status: 'passed' })
  })

  it('allows one pass or fail per session and no fail after a pass in the registration', async () => {
    const { au, registrationId } = await session([{ moveOn: 'Completed' }])
    await au.lrs.post('/statements', au.statement('initialized'))
    expect((await au.lrs.post('/statements', au.statement('passed'))).status).toBe(200)
    expect((await au.lrs.post('/statements', au.statement('failed'))).status).toBe(403)
    await au.lrs.post('/statements', au.statement('terminated'))
    const next = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    await next.lrs.post('/statements', next.statement('initialized'))
    expect((await next.lrs.post('/statements', next.statement('failed'))).status).toBe(403)
    expect((await next.lrs.post('/statements', next.statement('passed'))).status).toBe(403)
  })

  it('refuses completed, passed and failed in Browse and Review', async () => {
    const { au } = await session([{ moveOn: 'Completed' }], { launchMode: 'Review' })
    await au.lrs.post('/statements', au.statement('initialized'))
    expect((await au.lrs.post('/statements', au.statement('completed'))).status).toBe(403)
    expect((await au.lrs.post('/statements', au.statement('terminated'))).status).toBe(200)
  })

  it("counts cmi5's verbs only with its category, about the AU, in this session; the rest are allowed statements", async () => {
    const { au, registrationId } = await session([{ moveOn: 'Completed' }])
    await au.lrs.post('/statements', au.statement('initialized'))
    // A profile's own `completed` (no cmi5 category) is stored and changes nothing.
    const uncategorized = au.statement('completed', { allowed: true })
    expect((await au.lrs.post('/statements', uncategorized)).status).toBe(200)
    expect((await registration(registrationId)).status).toBe('in_progress')
    expect((await au.lrs.post('/statements', au.statement('completed', { objectId: 'https://example.com/other' }))).status).toBe(403)
    const otherSession = au.statement('completed')
    ;(otherSession.context as { extensions: Record<string, string> }).extensions['https://w3id.org/xapi/cmi5/context/extensions/sessionid'] = 'another'
    expect((await au.lrs.post('/statements', otherSession)).status).toBe(403)
    const experienced = au.statement('experienced', { allowed: true, objectId: 'https://example.com/page/3' })
    expect((await au.lrs.post('/statements', experienced)).status).toBe(200)
    const claimed = { ...au.statement('experienced'), context: { ...(experienced.context as object), contextActivities: { category: [{ id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }] } } }
    expect((await au.lrs.post('/statements', claimed)).status).toBe(403)
    expect((await au.lrs.post('/statements', au.statement('completed'))).status).toBe(200)
    expect((await registration(registrationId)).status).toBe('passed')
  })

  it('lets one of two concurrent passes through: the session and registration are locked for each batch', async () => {
    const { au, registrationId } = await session()
    await au.lrs.post('/statements', au.statement('initialized'))
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => au.lrs.post('/statements', au.statement('passed', { score: 0.9, masteryScore: 0.7 }))),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403, 403, 403])
    const read = await au.lrs.get(`/statements?registration=${registrationId}&verb=${encodeURIComponent('http://adlnet.gov/expapi/verbs/passed')}`)
    expect(read.body.statements).toHaveLength(1)
  })

  it('stores nothing of a batch with one broken statement', async () => {
    const { au, registrationId } = await session()
    const batch = [au.statement('initialized'), au.statement('passed', { score: 0.1, masteryScore: 0.7 })]
    expect((await au.lrs.post('/statements', batch)).status).toBe(403)
    const read = await au.lrs.get(`/statements?registration=${registrationId}`)
    expect(read.body.statements.map((s: { verb: { id: string } }) => s.verb.id.split('/').at(-1))).toEqual(['launched'])
  })

  it('refuses the credential after terminated, and the AU never writes LMS.LaunchData', async () => {
    const { au } = await session()
    const state = `/activities/state?activityId=${encodeURIComponent(au.params.get('activityId')!)}&agent=${encodeURIComponent(au.params.get('actor')!)}&registration=${au.params.get('registration')}&stateId=LMS.LaunchData`
    expect((await au.lrs.get(state)).status).toBe(200)
    expect((await au.lrs.put(state, { launchMode: 'Normal' })).status).toBe(403)
    await au.lrs.post('/statements', au.statement('initialized'))
    expect((await au.lrs.post('/statements', au.statement('terminated', { duration: 'PT42S' }))).status).toBe(200)
    expect((await au.lrs.post('/statements', au.statement('experienced', { allowed: true }))).status).toBe(403)
  })

  it("answers at the endpoint joined with a second slash, as ADL's cmi5.js asks for it", async () => {
    const { au } = await session()
    const state = `//activities/state?activityId=${encodeURIComponent(au.params.get('activityId')!)}&agent=${encodeURIComponent(au.params.get('actor')!)}&registration=${au.params.get('registration')}&stateId=LMS.LaunchData`
    const read = await au.lrs.get(state)
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ launchMode: 'Normal' })
  })

  it('reads only its own registration and writes only its learner', async () => {
    const other = await session()
    const { au } = await session()
    await au.lrs.post('/statements', au.statement('initialized'))
    const read = await au.lrs.get(`/statements?registration=${other.registrationId}`)
    expect(read.status).toBe(200)
    expect(read.body.statements).toEqual([])
    const someoneElse = { ...au.statement('experienced', { allowed: true }), actor: { mbox: 'mailto:other@example.com' } }
    expect((await au.lrs.post('/statements', someoneElse)).status).toBe(403)
  })
})
