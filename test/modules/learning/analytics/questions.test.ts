import { v7 as uuidv7 } from 'uuid'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../../../app.js'
import { createOrg, insertCourse, type TestOrg } from '../../../factories.js'
import { enroll } from '../../../fixtures/registrations.js'
import { createCredential, type Lrs, lrs, statement } from '../../../fixtures/xapi.js'

const t = useTestApp()

const url = (courseId: string) => `/api/v1/learn/admin/analytics/course-difficulty/${courseId}/questions`
const ANSWERED = 'http://adlnet.gov/expapi/verbs/answered'
const RESPONDED = 'http://adlnet.gov/expapi/verbs/responded'
const INTERACTION = 'http://adlnet.gov/expapi/activities/cmi.interaction'
const q = (n: number) => `https://courses.example.test/fire-safety/q${n}`

/** One answer: `verb` (answered by default) on question `n`, in `registration`, right or wrong (omitted: no success). */
async function answer(api: Lrs, registration: string, n: number, success?: boolean, options: { verb?: string; definition?: object } = {}) {
  const object = { objectType: 'Activity', id: q(n), definition: options.definition ?? { type: INTERACTION } }
  const body = statement({
    verb: { id: options.verb ?? ANSWERED },
    object,
    context: { registration },
    ...(success === undefined ? { result: { response: 'a' } } : { result: { success } }),
  })
  const res = await api.post('/statements', body)
  expect(res.status).toBe(200)
  return (res.body as string[])[0]
}

/** Registrations of a course, each passed, failed or left as enrolled, through the attempts endpoint. */
async function registrations(org: TestOrg, courseId: string, outcomes: (boolean | null)[]) {
  const ids: string[] = []
  for (const passed of outcomes) {
    const { registrationId } = await enroll(t.database.db, org.id, org.crew.id, { courseId })
    if (passed !== null) {
      const res = await org.crew.api.post(`/api/v1/learn/registrations/${registrationId}/attempts`, { attemptId: uuidv7(), passed })
      expect(res.status).toBe(201)
    }
    ids.push(registrationId)
  }
  return ids
}

describe('question difficulty', () => {
  let org: TestOrg
  let api: Lrs
  let course: string
  let otherCourse: string
  beforeAll(async () => {
    org = await createOrg(t.app, t.database.db)
    api = lrs(t.app, await createCredential(org))
    course = await insertCourse(t.database.db, org.id, 'Fire safety')
    // Passing (y): R1 1, R2 1, R3 0 (failed), R4 0 (failed), R5 0 (never finished).
    const [r1, r2, r3, r4, r5] = await registrations(org, course, [true, true, false, false, null])

    // q1, cmi5 style: right (x) 1, 1, 0, 1, 0. Descriptions in two languages: en-US is the one shown.
    const q1 = { type: INTERACTION, description: { 'de-DE': 'Welcher Löscher?', 'en-US': 'Which extinguisher?' } }
    for (const [r, x] of [
      [r1, true],
      [r2, true],
      [r3, false],
      [r4, true],
      [r5, false],
    ] as const) {
      await answer(api, r, 1, x, { definition: q1 })
    }
    // q8 before q2 so that their tie (same correctRate) is ordered by activityId, not by arrival:
    // right 1, 0, 0, 0, 1.
    for (const [r, x] of [
      [r1, true],
      [r2, false],
      [r3, false],
      [r4, false],
      [r5, true],
    ] as const)
      await answer(api, r, 8, x)
    // q2, a cmi.interaction under another verb, described without en-US (the alphabetically first language is
    // shown). R1 answered wrong, then right: its latest answer counts, once. R4 right, then wrong in a
    // statement voided since: voided statements do not count. Right 1, 0, 0, 1, 0.
    const q2 = { type: INTERACTION, description: { 'fr-FR': 'Quel extincteur ?', 'de-DE': 'Welcher Löscher, Teil 2?' } }
    const responded = { verb: RESPONDED, definition: q2 }
    await answer(api, r1, 2, false, responded)
    await answer(api, r1, 2, true, responded)
    await answer(api, r2, 2, false, responded)
    await answer(api, r3, 2, false, responded)
    await answer(api, r4, 2, true, responded)
    const voided = await answer(api, r4, 2, false, responded)
    await answer(api, r5, 2, false, responded)
    const voiding = statement({ verb: { id: 'http://adlnet.gov/expapi/verbs/voided' }, object: { objectType: 'StatementRef', id: voided } })
    expect((await api.post('/statements', voiding)).status).toBe(200)
    // q3: answered without a definition, right every time: no discrimination.
    await answer(api, r1, 3, true, { definition: {} })
    await answer(api, r3, 3, true, { definition: {} })
    // q7: wrong every time.
    await answer(api, r2, 7, false)

    // Not questions: an answer without success (a survey), another verb on an activity, an answer without
    // registration, a question whose only answer is voided.
    await answer(api, r1, 4, undefined)
    await answer(api, r1, 5, true, {
      verb: 'http://adlnet.gov/expapi/verbs/completed',
      definition: { type: 'http://adlnet.gov/expapi/activities/lesson' },
    })
    expect(
      (await api.post('/statements', statement({ verb: { id: ANSWERED }, object: { id: q(6) }, result: { success: true } }))).status,
    ).toBe(200)
    const only = await answer(api, r2, 9, true)
    expect((await api.post('/statements', { ...voiding, object: { objectType: 'StatementRef', id: only } })).status).toBe(200)

    // Another course of the organization: its answers to q1 and q10 stay out of this course's figures.
    otherCourse = await insertCourse(t.database.db, org.id, 'Enclosed spaces')
    const [r6] = await registrations(org, otherCourse, [true])
    await answer(api, r6, 1, false)
    await answer(api, r6, 10, true)

    // Another organization's LRS naming this course's registrations: invisible.
    const other = await createOrg(t.app, t.database.db)
    const otherApi = lrs(t.app, await createCredential(other))
    for (const r of [r1, r2, r3]) await answer(otherApi, r, 1, false)
    await answer(otherApi, r1, 11, true)
  })

  it('lists the questions hardest first, with figures computed by hand', async () => {
    const res = await org.admin.api.get(url(course))
    expect(res.status).toBe(200)
    // Phi of (right, passed) from the 2×2 table: (n11·n00 − n10·n01) / √(n1·n0·m1·m0).
    // q1: n11 2, n10 1, n01 0, n00 2 → 4 / √(3·2·2·3) = 2/3. q2 and q8: 1, 1, 1, 2 → 1 / √(2·3·2·3) = 1/6.
    expect(res.body).toEqual({
      data: [
        { activityId: q(7), description: null, attempts: 1, correctRate: 0, discrimination: null },
        {
          activityId: q(2),
          description: 'Welcher Löscher, Teil 2?',
          attempts: 5,
          correctRate: 0.4,
          discrimination: expect.closeTo(1 / 6, 12),
        },
        { activityId: q(8), description: null, attempts: 5, correctRate: 0.4, discrimination: expect.closeTo(1 / 6, 12) },
        { activityId: q(1), description: 'Which extinguisher?', attempts: 5, correctRate: 0.6, discrimination: expect.closeTo(2 / 3, 12) },
        { activityId: q(3), description: null, attempts: 2, correctRate: 1, discrimination: null },
      ],
    })
  })

  it('takes a limit like the course list', async () => {
    const res = await org.admin.api.get(`${url(course)}?limit=2`)
    expect(res.body.data.map((d: { activityId: string }) => d.activityId)).toEqual([q(7), q(2)])
    expect((await org.admin.api.get(`${url(course)}?limit=0`)).status).toBe(422)
  })

  it("keeps each course's questions apart", async () => {
    const res = await org.admin.api.get(url(otherCourse))
    expect(res.body).toEqual({
      data: [
        { activityId: q(1), description: 'Which extinguisher?', attempts: 1, correctRate: 0, discrimination: null },
        { activityId: q(10), description: null, attempts: 1, correctRate: 1, discrimination: null },
      ],
    })
  })

  it('answers an empty list for a course without answers, with or without registrations', async () => {
    const quiet = await insertCourse(t.database.db, org.id, 'Quiet')
    expect((await org.admin.api.get(url(quiet))).body).toEqual({ data: [] })
    await registrations(org, quiet, [true, false])
    const res = await org.admin.api.get(url(quiet))
    expect([res.status, res.body]).toEqual([200, { data: [] }])
  })

  it("answers 404 for an unknown course and another organization's, 422 for a malformed id", async () => {
    const other = await createOrg(t.app, t.database.db)
    for (const [who, id] of [
      [org, uuidv7()],
      [other, course],
    ] as const) {
      const res = await who.admin.api.get(url(id))
      expect([res.status, res.body]).toEqual([404, { detail: 'Course not found' }])
    }
    expect((await org.admin.api.get(url('not-a-uuid'))).status).toBe(422)
  })

  it('is for admins only, with the learn product', async () => {
    for (const user of [org.officeAdmin, org.officeEmployee, org.crew]) {
      const res = await user.api.get(url(course))
      expect([res.status, res.body]).toEqual([403, { detail: expect.any(String) }])
    }
    const crewOnly = await createOrg(t.app, t.database.db, { products: ['crew'] })
    expect((await crewOnly.admin.api.get(url(uuidv7()))).status).toBe(403)
  })
})
