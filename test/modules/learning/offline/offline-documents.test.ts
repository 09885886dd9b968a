import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type Client, privateDatabase, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { type AuSession, launchAu } from '../../../fixtures/cmi5-session.js'
import { fixturePackage, importPackage } from '../../../fixtures/packages.js'
import { enroll } from '../../../fixtures/registrations.js'

// DECISIONS §16, launch-17: state documents a course wrote offline are stored with the session's credential under
// the live rules; the one written later wins, an older one is refused (and kept on the device).

let own: Awaited<ReturnType<typeof privateDatabase>>
let t: TestApp
let org: TestOrg
let course: string
beforeAll(async () => {
  own = await privateDatabase()
  // The package import is a job.
  t = await buildTestApp(
    { RUN_JOBS: '1' },
    { database: own.database, jobs: { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 } },
  )
  org = await createOrg(t.app, t.database.db)
  course = (await importPackage(t.app, org.admin.api, await fixturePackage('masteryscore_responsive'))).courseId
})
afterAll(async () => {
  await t.app.close()
  await own.dispose()
})

const sync = (who: Client, body: unknown) =>
  who.post('/api/v1/learn/offline/sync', gzipSync(JSON.stringify(body)), { 'content-type': 'application/json', 'content-encoding': 'gzip' })

async function offlineAu(who = org.crew) {
  const { registrationId } = await enroll(t.database.db, org.id, who.id, { courseId: course })
  return launchAu(t.app, t.config.publicUrl, who.api, registrationId, {}, { via: 'offline' })
}

/** A state document of the session as its worker queues it: the parameters the AU sent, the body, when written. */
const bookmark = (au: AuSession, body: string, writtenAt: Date, overrides: Record<string, string> = {}) => ({
  resource: 'activities/state',
  activityId: au.params.get('activityId'),
  agent: au.params.get('actor'),
  registration: au.params.get('registration'),
  stateId: 'bookmark',
  contentType: 'text/plain',
  body,
  writtenAt: writtenAt.toISOString(),
  ...overrides,
})
const bookmarkPath = (au: AuSession) => au.launchDataPath.replace('stateId=LMS.LaunchData', 'stateId=bookmark')
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000)
const documents = (au: AuSession, docs: unknown[]) => ({
  sessions: [{ sessionId: au.sessionId, credential: au.credential, documents: docs }],
})

describe('POST /offline/sync: state documents written offline', () => {
  it('stores a bookmark that the session reads back with its credential, as of the time written; a replay changes nothing', async () => {
    const au = await offlineAu()
    const writtenAt = minutesAgo(30)
    const body = documents(au, [bookmark(au, 'page 7', writtenAt)])
    const res = await sync(org.crew.api, body)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ sessions: [{ sessionId: au.sessionId, accepted: 1, refused: [] }] })
    const read = await au.lrs.get(bookmarkPath(au))
    expect(read).toMatchObject({ status: 200, text: 'page 7' })
    expect(read.headers['last-modified']).toBe(new Date(Math.floor(writtenAt.getTime() / 1000) * 1000).toUTCString())
    const again = await sync(org.crew.api, body)
    expect(again.body).toEqual({ sessions: [{ sessionId: au.sessionId, accepted: 1, refused: [] }] })
    expect(await au.lrs.get(bookmarkPath(au))).toMatchObject({
      text: 'page 7',
      headers: { etag: read.headers.etag, 'last-modified': read.headers['last-modified'] },
    })
  })

  it('a document written on the device later than the stored one replaces it; an earlier one is refused and changes nothing', async () => {
    const au = await offlineAu()
    const live = await au.lrs.put(bookmarkPath(au), 'page 3 (live)', { 'content-type': 'text/plain' })
    expect(live.status).toBe(204)
    const older = await sync(org.crew.api, documents(au, [bookmark(au, 'page 2', minutesAgo(10))]))
    expect(older.body.sessions[0]).toEqual({
      sessionId: au.sessionId,
      accepted: 0,
      refused: [{ document: 0, reason: 'A later version of this document is stored' }],
    })
    expect((await au.lrs.get(bookmarkPath(au))).text).toBe('page 3 (live)')
    const later = await sync(org.crew.api, documents(au, [bookmark(au, 'page 4', new Date())]))
    expect(later.body.sessions[0]).toMatchObject({ accepted: 1, refused: [] })
    expect((await au.lrs.get(bookmarkPath(au))).text).toBe('page 4')
  })

  it('a document deleted on the device goes from the service, unless written there later; the deletion follows the same rules', async () => {
    const au = await offlineAu()
    const deletion = (deletedAt: Date, overrides: Record<string, string> = {}) => {
      const { contentType: _, body: __, ...address } = bookmark(au, '', deletedAt, overrides)
      return { ...address, deleted: true }
    }
    expect((await au.lrs.put(bookmarkPath(au), 'page 5 (live)', { 'content-type': 'text/plain' })).status).toBe(204)
    // Deleted on the device before the live write: refused, the live one stays.
    const earlier = await sync(org.crew.api, documents(au, [deletion(minutesAgo(10))]))
    expect(earlier.body.sessions[0]).toEqual({
      sessionId: au.sessionId,
      accepted: 0,
      refused: [{ document: 0, reason: 'A later version of this document is stored' }],
    })
    expect((await au.lrs.get(bookmarkPath(au))).text).toBe('page 5 (live)')
    // Deleted after it: gone; sent again (nothing stored), taken and changes nothing.
    const later = documents(au, [deletion(new Date())])
    expect((await sync(org.crew.api, later)).body.sessions[0]).toMatchObject({ accepted: 1, refused: [] })
    expect((await au.lrs.get(bookmarkPath(au))).status).toBe(404)
    expect((await sync(org.crew.api, later)).body.sessions[0]).toMatchObject({ accepted: 1, refused: [] })
    // Written and deleted offline, the write sent first: the document ends deleted.
    const both = documents(au, [bookmark(au, 'page 6', minutesAgo(2)), deletion(minutesAgo(1))])
    expect((await sync(org.crew.api, both)).body.sessions[0]).toMatchObject({ accepted: 2, refused: [] })
    expect((await au.lrs.get(bookmarkPath(au))).status).toBe(404)
    // Another registration's document, or the LMS's state: refused as a live DELETE would be.
    const other = await offlineAu()
    expect((await other.lrs.put(bookmarkPath(other), 'theirs', { 'content-type': 'text/plain' })).status).toBe(204)
    const foreign = await sync(
      org.crew.api,
      documents(au, [
        deletion(new Date(), { registration: other.params.get('registration') as string }),
        deletion(new Date(), { stateId: 'LMS.LaunchData' }),
      ]),
    )
    expect(foreign.body.sessions[0]).toMatchObject({ accepted: 0 })
    expect(foreign.body.sessions[0].refused.map((r: { document: number }) => r.document)).toEqual([0, 1])
    expect((await other.lrs.get(bookmarkPath(other))).text).toBe('theirs')
    expect((await au.lrs.get(au.launchDataPath)).body).toHaveProperty('contextTemplate')
    // Dated an hour ahead of the service: the device's clock is wrong, refused, and the document stays.
    expect((await au.lrs.put(bookmarkPath(au), 'page 8 (live)', { 'content-type': 'text/plain' })).status).toBe(204)
    const ahead = await sync(org.crew.api, documents(au, [deletion(new Date(Date.now() + 3_600_000))]))
    expect(ahead.body.sessions[0]).toMatchObject({ accepted: 0, refused: [{ document: 0, reason: expect.stringMatching(/clock/) }] })
    expect((await au.lrs.get(bookmarkPath(au))).text).toBe('page 8 (live)')
    // A deletion carrying a body is neither shape: 422 for the request, as any body the schema refuses.
    const mixed = await sync(org.crew.api, documents(au, [{ ...deletion(new Date()), body: 'x' }]))
    expect(mixed.status).toBe(422)
  })

  it('is stored before the session’s statements end it, in one request, and the next online session reads it', async () => {
    const { registrationId } = await enroll(t.database.db, org.id, org.crew.id, { courseId: course })
    const au = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId, {}, { via: 'offline' })
    const statements = [au.statement('initialized'), au.statement('terminated')]
    const res = await sync(org.crew.api, {
      sessions: [{ sessionId: au.sessionId, credential: au.credential, statements, documents: [bookmark(au, 'page 9', minutesAgo(1))] }],
    })
    expect(res.body.sessions[0]).toMatchObject({ accepted: 3, refused: [] })
    const next = await launchAu(t.app, t.config.publicUrl, org.crew.api, registrationId)
    expect((await next.lrs.get(bookmarkPath(next))).text).toBe('page 9')
  })

  it('writes only its own actor, activity and registration, never the LMS’s state nor a profile; another org’s crew reaches nothing', async () => {
    const au = await offlineAu()
    const other = await offlineAu()
    const otherAdmin = await offlineAu(org.admin)
    const res = await sync(
      org.crew.api,
      documents(au, [
        bookmark(au, 'x', minutesAgo(5), { registration: other.params.get('registration') as string }),
        bookmark(au, 'x', minutesAgo(5), { agent: otherAdmin.params.get('actor') as string }),
        bookmark(au, 'x', minutesAgo(5), { activityId: 'https://example.com/elsewhere' }),
        bookmark(au, '{}', minutesAgo(5), { stateId: 'LMS.LaunchData' }),
        {
          ...bookmark(au, '{}', minutesAgo(5)),
          resource: 'agents/profile',
          activityId: undefined,
          registration: undefined,
          stateId: undefined,
          profileId: 'cmi5LearnerPreferences',
        },
        bookmark(au, 'x', new Date(Date.now() + 3_600_000)),
      ]),
    )
    expect(res.body.sessions[0].accepted).toBe(0)
    expect(res.body.sessions[0].refused.map((r: { document: number }) => r.document)).toEqual([0, 1, 2, 3, 4, 5])
    expect(res.body.sessions[0].refused[5].reason).toMatch(/clock/)
    expect((await other.lrs.get(bookmarkPath(other))).status).toBe(404)
    expect((await au.lrs.get(bookmarkPath(au))).status).toBe(404)
    expect((await au.lrs.get(au.launchDataPath)).body).toHaveProperty('contextTemplate')
    const stranger = await createOrg(t.app, t.database.db)
    const theirs = await sync(stranger.crew.api, documents(au, [bookmark(au, 'x', minutesAgo(1))]))
    expect(theirs.body.sessions[0]).toEqual({
      sessionId: au.sessionId,
      accepted: 0,
      refused: [{ document: 0, reason: 'Launch session not found' }],
    })
    const wrong = Buffer.from(`session.${other.sessionId}:nope`).toString('base64')
    const forged = await sync(org.crew.api, {
      sessions: [{ sessionId: au.sessionId, credential: wrong, documents: [bookmark(au, 'x', minutesAgo(1))] }],
    })
    expect(forged.body.sessions[0].refused).toEqual([{ document: 0, reason: 'Not this session’s credential' }])
    expect((await au.lrs.get(bookmarkPath(au))).status).toBe(404)
  })

  it('answers 422 past 100 documents in a session, a body past 256 KiB or a document without its time', async () => {
    const au = await offlineAu()
    const many = Array.from({ length: 101 }, (_, i) => bookmark(au, 'x', minutesAgo(1), { stateId: `s${i}` }))
    expect((await sync(org.crew.api, documents(au, many))).status).toBe(422)
    expect((await sync(org.crew.api, documents(au, [bookmark(au, 'x'.repeat(262_145), minutesAgo(1))]))).status).toBe(422)
    const { writtenAt: _, ...untimed } = bookmark(au, 'x', minutesAgo(1))
    expect((await sync(org.crew.api, documents(au, [untimed]))).status).toBe(422)
    expect((await sync(org.crew.api, documents(au, many.slice(0, 100)))).body.sessions[0]).toMatchObject({ accepted: 100, refused: [] })
  })
})
