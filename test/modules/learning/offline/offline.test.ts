import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildContentApp } from '../../../../src/content-app.js'
import type { App } from '../../../../src/modules/types.js'
import { buildTestApp, type Client, privateDatabase, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { type AuSession, launchAu } from '../../../fixtures/cmi5-session.js'
import { packagedCourse } from '../../../fixtures/launch.js'
import { fixturePackage, importPackage, scormPackage } from '../../../fixtures/packages.js'
import { enroll } from '../../../fixtures/registrations.js'

// DECISIONS §16: a course launched for offline play lists its files; the console's queue, sent after the
// fact, is judged as live records are (§13.5, §13.6), once, within the session's expiry plus 7 days.

let own: Awaited<ReturnType<typeof privateDatabase>>
let t: TestApp
let content: App
let org: TestOrg
let cmi5Course: string
let scormCourse: string
beforeAll(async () => {
  own = await privateDatabase()
  t = await buildTestApp(
    { RUN_JOBS: '1' },
    { database: own.database, jobs: { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 } },
  )
  content = await buildContentApp({ config: t.config, logger: false })
  org = await createOrg(t.app, t.database.db)
  cmi5Course = (await importPackage(t.app, org.admin.api, await fixturePackage('masteryscore_responsive'))).courseId
  const sco = await scormPackage('1.2', { 'index.html': '<p>Lesson</p>', 'quiz.js': 'var q = 1' }, { masteryScore: 80 })
  scormCourse = (await importPackage(t.app, org.admin.api, sco)).courseId
})
afterAll(async () => {
  await content.close()
  await t.app.close()
  await own.dispose()
})

const MASTERY = 0.3
const sync = (who: Client, body: unknown) =>
  who.post('/api/v1/learn/offline/sync', gzipSync(JSON.stringify(body)), { 'content-type': 'application/json', 'content-encoding': 'gzip' })
const registration = async (id: string) => (await org.admin.api.get(`/api/v1/learn/registrations/${id}`)).body
const events = async (type: string, targetId: string) =>
  Number(
    (
      await t.database.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('type', '=', type)
        .where('target_id', '=', targetId)
        .executeTakeFirstOrThrow()
    ).n,
  )
const statementCount = async (registrationId: string) =>
  Number(
    (
      await sql<{ n: number }>`select count(*) as n from xapi_statements where registration = ${registrationId}::uuid`.execute(
        t.database.db,
      )
    ).rows[0].n,
  )

async function offlineCmi5(who = org.crew) {
  const { registrationId } = await enroll(t.database.db, org.id, who.id, { courseId: cmi5Course })
  const au = await launchAu(t.app, t.config.publicUrl, who.api, registrationId, {}, { via: 'offline' })
  return { registrationId, au }
}
/** What an AU sends in one sitting to pass. */
const passing = (au: AuSession) => [
  au.statement('initialized'),
  au.statement('passed', { score: 0.9, masteryScore: MASTERY }),
  au.statement('terminated'),
]

describe('POST /registrations/{id}/offline', () => {
  it('launches a session of OFFLINE_SESSION_DAYS listing every file of the package with its size and SHA-256, each downloadable as listed', async () => {
    const { registrationId } = await enroll(t.database.db, org.id, org.crew.id, { courseId: cmi5Course })
    const res = await org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/offline`, {})
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ standard: 'cmi5', sessionId: expect.any(String) })
    expect(Date.parse(res.body.expiresAt) - Date.now()).toBeGreaterThan(29.9 * 86_400_000)
    expect(res.body.files.length).toBeGreaterThan(3)
    expect(res.body.totalBytes).toBe(res.body.files.reduce((sum: number, f: { bytes: number }) => sum + f.bytes, 0))
    for (const file of res.body.files as { url: string; bytes: number; sha256: string }[]) {
      const got = await content.inject({ method: 'GET', url: file.url.replace(t.config.contentOrigin, '') })
      expect(got.statusCode).toBe(200)
      expect(got.rawPayload.length).toBe(file.bytes)
      expect(createHash('sha256').update(got.rawPayload).digest('hex')).toBe(file.sha256)
    }
    expect(res.body.url.startsWith(t.config.contentOrigin)).toBe(true)
    const session = await t.database.db
      .selectFrom('learning_sessions')
      .selectAll()
      .where('id', '=', res.body.sessionId)
      .executeTakeFirstOrThrow()
    expect(session.accepts_until!.getTime() - session.expires_at.getTime()).toBe(7 * 86_400_000)
  })

  it('SCORM: the player page and its scripts are listed too, without the credential', async () => {
    const { registrationId } = await enroll(t.database.db, org.id, org.crew.id, { courseId: scormCourse })
    const res = await org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/offline`, {})
    expect(res.status).toBe(201)
    const urls = (res.body.files as { url: string }[]).map((f) => f.url)
    expect(urls).toContain(res.body.url.split('#')[0])
    expect(urls.some((u) => u.includes('/player-assets/scorm-again.'))).toBe(true)
    expect(urls.some((u) => u.endsWith('/quiz.js'))).toBe(true)
    expect(urls.every((u) => !u.includes('secret='))).toBe(true)
  })

  it('takes the returnUrl a course sends the learner to when it ends (cmi5 returnURL in LMS.LaunchData)', async () => {
    const { registrationId } = await enroll(t.database.db, org.id, org.crew.id, { courseId: cmi5Course })
    const returnUrl = `${t.config.publicUrl}/console/me/training`
    const au = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId, { returnUrl }, { via: 'offline' })
    expect((await au.lrs.get(au.launchDataPath)).body.returnURL).toBe(returnUrl)
    expect((await org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/offline`, { returnUrl: 'not a url' })).status).toBe(422)
  })

  it('answers 422 for an AU index past the column, 404 for another crew member’s registration and 409 for a version without a file list', async () => {
    const other = await enroll(t.database.db, org.id, org.admin.id, { courseId: cmi5Course })
    expect((await org.crew.api.post(`/api/v1/learn/registrations/${other.registrationId}/offline`, {})).status).toBe(404)
    // An index past the column's range is the caller's error, not the database's.
    expect((await org.crew.api.post(`/api/v1/learn/registrations/${other.registrationId}/offline`, { auIndex: 2 ** 31 })).status).toBe(422)
    const { courseId } = await packagedCourse(t.database.db, org.id, [{ url: 'lesson.html' }])
    const { registrationId } = await enroll(t.database.db, org.id, org.crew.id, { courseId })
    const res = await org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/offline`, {})
    expect(res.status).toBe(409)
    expect(res.body.detail).toMatch(/import its package again/)
    expect(
      await t.database.db.selectFrom('learning_sessions').select('id').where('registration_id', '=', registrationId).execute(),
    ).toEqual([])
  })
})

describe('POST /offline/sync: cmi5 statements', () => {
  it('passes the registration once, one attempt, its event once; a replay of the queue changes nothing', async () => {
    const { registrationId, au } = await offlineCmi5()
    const body = { sessions: [{ sessionId: au.sessionId, credential: au.credential, statements: passing(au) }] }
    const first = await sync(org.crew.api, body)
    expect(first.status).toBe(200)
    expect(first.body).toEqual({ sessions: [{ sessionId: au.sessionId, accepted: 3, refused: [] }] })
    const passed = await registration(registrationId)
    expect(passed).toMatchObject({ status: 'passed', attempt_count: 1, score_percent: 90 })
    const stored = await statementCount(registrationId)
    const again = await sync(org.crew.api, body)
    expect(again.body).toEqual({ sessions: [{ sessionId: au.sessionId, accepted: 3, refused: [] }] })
    expect(await registration(registrationId)).toEqual(passed)
    expect(await statementCount(registrationId)).toBe(stored)
    expect(await events('registration.passed', registrationId)).toBe(1)
  })

  it('refuses what a rule refuses live, with its reason, and takes the rest in order', async () => {
    const { registrationId, au } = await offlineCmi5()
    const [initialized, , terminated] = passing(au)
    const belowMastery = au.statement('passed', { score: 0.1, masteryScore: MASTERY })
    const res = await sync(org.crew.api, {
      sessions: [{ sessionId: au.sessionId, credential: au.credential, statements: [initialized, belowMastery, terminated] }],
    })
    expect(res.body.sessions[0]).toEqual({
      sessionId: au.sessionId,
      accepted: 2,
      refused: [{ statementId: belowMastery.id, reason: expect.any(String) }],
    })
    expect(await registration(registrationId)).toMatchObject({ status: 'in_progress', attempt_count: 1 })
  })

  it('accepts a session’s records until its expiry plus 7 days, then refuses them', async () => {
    const late = await offlineCmi5()
    const tooLate = await offlineCmi5()
    const live = await offlineCmi5()
    // As the offline launch sets them (checked above): the records are taken until the expiry plus 7 days.
    const moveExpiry = (sessionId: string, interval: string) =>
      sql`update learning_sessions set expires_at = now() - ${interval}::interval, accepts_until = now() - ${interval}::interval + interval '7 days'
        where id = ${sessionId}::uuid`.execute(t.database.db)
    await moveExpiry(late.au.sessionId, '6 days 23 hours')
    await moveExpiry(tooLate.au.sessionId, '7 days 1 minute')
    await sql`update learning_sessions set expires_at = now() - interval '1 minute', accepts_until = null where id = ${live.au.sessionId}::uuid`.execute(
      t.database.db,
    )
    const res = await sync(org.crew.api, {
      sessions: [late, tooLate, live].map(({ au }) => ({ sessionId: au.sessionId, credential: au.credential, statements: passing(au) })),
    })
    expect(res.status).toBe(200)
    expect(res.body.sessions.map((s: { accepted: number }) => s.accepted)).toEqual([3, 0, 0])
    expect(res.body.sessions[1].refused).toHaveLength(3)
    expect(res.body.sessions[1].refused[0].reason).toMatch(/expired/)
    expect((await registration(late.registrationId)).status).toBe('passed')
    expect((await registration(tooLate.registrationId)).status).not.toBe('passed')
  })

  it('refuses every record of a session that is not the caller’s, or with a wrong credential', async () => {
    const { au, registrationId } = await offlineCmi5()
    const stranger = await createOrg(t.app, t.database.db)
    const res = await sync(stranger.crew.api, {
      sessions: [{ sessionId: au.sessionId, credential: au.credential, statements: passing(au) }],
    })
    expect(res.body.sessions[0]).toMatchObject({ accepted: 0, refused: [{ reason: 'Launch session not found' }, {}, {}] })
    const wrong = Buffer.from(`session.${au.sessionId}:nope`).toString('base64')
    const res2 = await sync(org.crew.api, { sessions: [{ sessionId: au.sessionId, credential: wrong, statements: passing(au) }] })
    expect(res2.body.sessions[0]).toMatchObject({ accepted: 0, refused: [{ reason: 'Not this session’s credential' }, {}, {}] })
    expect((await registration(registrationId)).attempt_count).toBe(0)
  })

  it('takes an uncompressed body too; answers 422 for a statement without an id or more than 1,000 records, 400 for a body that does not inflate, 413 past 16 MiB inflated', async () => {
    const { au } = await offlineCmi5()
    const [initialized] = passing(au)
    const { id: _, ...noId } = initialized
    const res = await org.crew.api.post('/api/v1/learn/offline/sync', {
      sessions: [{ sessionId: au.sessionId, credential: au.credential, statements: [noId] }],
    })
    expect(res.status).toBe(422)
    // At most 1,000 records over all the sessions of one sync, each session's own limit notwithstanding.
    const commits = (n: number) => Array.from({ length: n }, (_, seq) => ({ seq, cmi: {} }))
    const tooMany = await org.crew.api.post('/api/v1/learn/offline/sync', {
      sessions: [
        { sessionId: au.sessionId, credential: au.credential, commits: commits(600) },
        { sessionId: au.sessionId, credential: au.credential, commits: commits(401) },
      ],
    })
    expect(tooMany.status).toBe(422)
    const gzipped = { 'content-type': 'application/json', 'content-encoding': 'gzip' }
    expect((await org.crew.api.post('/api/v1/learn/offline/sync', Buffer.from('not gzip'), gzipped)).status).toBe(400)
    const bomb = gzipSync(`{"sessions":[],"pad":"${' '.repeat(17 * 1_048_576)}"}`)
    expect(bomb.length).toBeLessThan(100_000)
    expect((await org.crew.api.post('/api/v1/learn/offline/sync', bomb, gzipped)).status).toBe(413)
    const ok = await org.crew.api.post('/api/v1/learn/offline/sync', {
      sessions: [{ sessionId: au.sessionId, credential: au.credential, statements: [initialized] }],
    })
    expect(ok.body.sessions[0]).toMatchObject({ accepted: 1, refused: [] })
  })
})

describe('POST /offline/sync: the wire budget (§16)', () => {
  /** The console's compression (console/src/offline/sync.ts): CompressionStream's gzip of the JSON body. */
  const gzip = async (text: string) =>
    new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer())
  /** A POST's request line and headers with a bearer token, and its short answer: measured on the browser test's link. */
  const HEADERS = 1_000

  it('200 queued statements of a real session go in one request of at most 60 KB on the wire, all taken', async () => {
    const { registrationId, au } = await offlineCmi5()
    const start = Date.parse('2026-11-23T08:00:00Z')
    const verbs = ['experienced', 'answered', 'progressed'] as const
    const middle = Array.from({ length: 197 }, (_, i) => {
      const verb = verbs[i % verbs.length]
      const statement = au.statement(verb, { allowed: true, objectId: `${au.params.get('activityId')}/page-${i}`, score: (i % 11) / 10 })
      if (verb === 'answered') Object.assign(statement.result as object, { response: `choice-${i % 4}`, success: i % 5 !== 0 })
      return statement
    })
    const statements = [
      au.statement('initialized'),
      ...middle,
      au.statement('passed', { score: 0.9, masteryScore: MASTERY }),
      au.statement('terminated'),
    ]
    // Each at its own second of the week, as an AU stamps them (identical stamps would compress better than life).
    for (const [i, statement] of statements.entries()) statement.timestamp = new Date(start + i * 3_011_000).toISOString()
    const body = await gzip(JSON.stringify({ sessions: [{ sessionId: au.sessionId, credential: au.credential, statements, commits: [] }] }))
    expect(body.length + HEADERS).toBeLessThanOrEqual(60 * 1024)
    const res = await org.crew.api.post('/api/v1/learn/offline/sync', Buffer.from(body), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    })
    expect(res.body).toEqual({ sessions: [{ sessionId: au.sessionId, accepted: 200, refused: [] }] })
    expect(await statementCount(registrationId)).toBe(202) // and the service's own launched and satisfied
  })
})

describe('POST /offline/sync: SCORM commits', () => {
  async function offlineScorm() {
    const { registrationId } = await enroll(t.database.db, org.id, org.crew.id, { courseId: scormCourse })
    const res = await org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/offline`, {})
    const fragment = new URLSearchParams(new URL(res.body.url).hash.slice(1))
    const sessionId = res.body.sessionId as string
    return { registrationId, sessionId, credential: Buffer.from(`session.${sessionId}:${fragment.get('secret')}`).toString('base64') }
  }
  const core = (lesson_status: string, raw: number) => ({
    core: { lesson_status, score: { raw: String(raw) }, lesson_location: `p${raw}` },
  })

  it('applies commits in order, judges the final one (§13.6) once; a replayed commit is accepted and changes nothing', async () => {
    const s = await offlineScorm()
    const commits = [
      { seq: 1, cmi: core('passed', 95) },
      { seq: 2, cmi: core('incomplete', 40) },
      { seq: 3, cmi: core('completed', 90), terminate: true },
    ]
    const res = await sync(org.crew.api, { sessions: [{ sessionId: s.sessionId, credential: s.credential, commits }] })
    expect(res.body.sessions[0]).toEqual({ sessionId: s.sessionId, accepted: 3, refused: [] })
    const passed = await registration(s.registrationId)
    expect(passed).toMatchObject({ status: 'passed', attempt_count: 1 })
    const again = await sync(org.crew.api, { sessions: [{ sessionId: s.sessionId, credential: s.credential, commits: commits.slice(1) }] })
    expect(again.body.sessions[0]).toEqual({ sessionId: s.sessionId, accepted: 2, refused: [] })
    expect(await registration(s.registrationId)).toEqual(passed)
    const row = await t.database.db
      .selectFrom('learning_sessions')
      .select(['runtime', 'commit_seq'])
      .where('id', '=', s.sessionId)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({ commit_seq: 3, runtime: { core: { lesson_location: 'p90' } } })
  })

  it('a SCO that passed mid-session and ends failed is a failed attempt (§13.6)', async () => {
    const s = await offlineScorm()
    const commits = [
      { seq: 1, cmi: core('passed', 95) },
      { seq: 2, cmi: core('completed', 50), terminate: true },
    ]
    await sync(org.crew.api, { sessions: [{ sessionId: s.sessionId, credential: s.credential, commits }] })
    expect(await registration(s.registrationId)).toMatchObject({ status: 'failed', attempt_count: 1 })
  })

  it('refuses a commit a rule refuses, with the SCORM error text, and a commit after the end', async () => {
    const s = await offlineScorm()
    const commits = [
      { seq: 1, cmi: { suspend_data: 'x'.repeat(4097) } },
      { seq: 2, cmi: core('completed', 90), terminate: true },
      { seq: 3, cmi: core('incomplete', 10) },
    ]
    const res = await sync(org.crew.api, { sessions: [{ sessionId: s.sessionId, credential: s.credential, commits }] })
    expect(res.body.sessions[0]).toEqual({
      sessionId: s.sessionId,
      accepted: 1,
      refused: [
        { seq: 1, reason: expect.stringContaining('cmi.suspend_data') },
        { seq: 3, reason: expect.stringContaining('ended') },
      ],
    })
    expect(await registration(s.registrationId)).toMatchObject({ status: 'passed', attempt_count: 1 })
  })
})
