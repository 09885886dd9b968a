import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { type TestUser, useOrg } from '../../../factories.js'
import { type AuSession, launchAu } from '../../../fixtures/cmi5-session.js'
import { packagedCourse } from '../../../fixtures/launch.js'
import { enroll } from '../../../fixtures/registrations.js'
import { createCredential, lrs, query, storedRows } from '../../../fixtures/xapi.js'

// DECISIONS §13.7: a launch session's credential reaches only its own session's records.
const t = useTestApp()
const org = useOrg(t)

const VOIDED = 'http://adlnet.gov/expapi/verbs/voided'
const refused = { error: true, message: expect.any(String) }

async function session(who: TestUser): Promise<AuSession & { launchedId: string }> {
  const { courseId } = await packagedCourse(t.database.db, org.id, [{}])
  const { registrationId } = await enroll(t.database.db, org.id, who.id, { courseId })
  const au = await launchAu(t.app, t.config.publicUrl, who.api, registrationId)
  const launched = (await storedRows(t, org.id)).find(
    (row) => row.registration === registrationId && (row.statement as { verb: { id: string } }).verb.id.endsWith('/launched'),
  )
  return { ...au, launchedId: launched?.id as string }
}

let mine: Awaited<ReturnType<typeof session>>
let mineElsewhere: Awaited<ReturnType<typeof session>>
let theirs: Awaited<ReturnType<typeof session>>
beforeAll(async () => {
  const other = await org.addUser('crew')
  // The learner's own session, the same learner in another registration, and another learner.
  ;[mine, mineElsewhere, theirs] = await Promise.all([session(org.crew), session(org.crew), session(other)])
  expect((await mine.lrs.post('/statements', mine.statement('initialized'))).status).toBe(200)
})

const voiding = (au: AuSession, targetId: string) => {
  const base = au.statement('initialized', { allowed: true })
  return { ...base, verb: { id: VOIDED }, object: { objectType: 'StatementRef', id: targetId } }
}

describe('a session credential', () => {
  it('reads its own statement by id, and no statement of another learner or registration (403)', async () => {
    expect((await mine.lrs.get(`/statements${query({ statementId: mine.launchedId })}`)).status).toBe(200)
    for (const other of [theirs, mineElsewhere]) {
      const res = await mine.lrs.get(`/statements${query({ statementId: other.launchedId })}`)
      expect([res.status, res.body]).toEqual([403, refused])
      expect((await mine.lrs.get(`/statements${query({ statementId: other.launchedId, attachments: 'true' })}`)).status).toBe(403)
    }
  })

  it("refuses another learner's voided statement by voidedStatementId (403), where its own would be found", async () => {
    const admin = lrs(t.app, await createCredential(org))
    const victim = await theirs.lrs.post('/statements', theirs.statement('initialized'))
    expect(victim.status).toBe(200)
    const lms = { ...voiding(theirs, victim.body[0]), actor: { mbox: 'mailto:office@example.test' } }
    expect((await admin.post('/statements', lms)).status).toBe(200)
    const res = await mine.lrs.get(`/statements${query({ voidedStatementId: victim.body[0] })}`)
    expect([res.status, res.body]).toEqual([403, refused])
    expect((await theirs.lrs.get(`/statements${query({ voidedStatementId: victim.body[0] })}`)).status).toBe(200)
  })

  it("cannot void another learner's statement, nor its learner's in another registration (403), and nothing is voided", async () => {
    for (const other of [theirs, mineElsewhere]) {
      const res = await mine.lrs.post('/statements', voiding(mine, other.launchedId))
      expect([res.status, res.body]).toEqual([403, refused])
    }
    const rows = await storedRows(t, org.id)
    expect(rows.filter((row) => [theirs.launchedId, mineElsewhere.launchedId].includes(row.id)).map((row) => row.voided)).toEqual([
      false,
      false,
    ])
    expect(
      rows.filter(
        (row) => (row.statement as { verb: { id: string } }).verb.id === VOIDED && row.registration === mine.params.get('registration'),
      ),
    ).toEqual([])
  })

  it("writes only statements by its own actor in its own registration (403, nothing stored)", async () => {
    const before = (await storedRows(t, org.id)).length
    const ownStatement = mine.statement('initialized', { allowed: true }) as { context: Record<string, unknown> }
    for (const foreign of [
      { ...ownStatement, actor: { mbox: 'mailto:someone@example.com' } },
      { ...ownStatement, context: { ...ownStatement.context, registration: theirs.params.get('registration') } },
    ]) {
      const res = await mine.lrs.post('/statements', foreign)
      expect([res.status, res.body]).toEqual([403, refused])
    }
    expect((await storedRows(t, org.id)).length).toBe(before)
  })

  it('reads /agents for its own learner only (403 for another person)', async () => {
    const own = JSON.parse(mine.params.get('actor') as string)
    const other = JSON.parse(theirs.params.get('actor') as string)
    expect((await mine.lrs.get(`/agents${query({ agent: own })}`)).status).toBe(200)
    const res = await mine.lrs.get(`/agents${query({ agent: other })}`)
    expect([res.status, res.body]).toEqual([403, refused])
    expect((await mine.lrs.get(`/agents${query({ agent: { mbox: 'mailto:anyone@example.test' } })}`)).status).toBe(403)
  })
})
