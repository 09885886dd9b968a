import { execFile } from 'node:child_process'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSeaworthyClient, type SeaworthyClient } from '../client/index.js'
import { launchBrowser, screenshot, signInAs } from './browser.js'
import { assign, createCrew, createShip, ok, PASSWORD, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// ADL's cmi5 geology courses (../shared/fixtures/cmi5), imported and played in Debian's chromium from
// the content origin, as a crew member launched them: the records they write pass the registration,
// clear its readiness blocker and raise the event.

const ADMIN = { email: 'admin@cmi5.browser.test', password: PASSWORD, domain: 'cmi5.browser.test' }
const FIXTURES = join(import.meta.dirname, '../../shared/fixtures/cmi5')

let service: RunningService
let browser: Browser
let admin: SeaworthyClient

beforeAll(async () => {
  service = await startService(ADMIN)
  admin = await signIn(service.baseUrl, ADMIN.email)
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

/** Uploads a fixture package and imports it: the new course's id. */
const importFixture = async (name: string) => importPackage(name, await readFile(join(FIXTURES, `${name}.zip`)))

async function importPackage(name: string, file: Buffer): Promise<string> {
  const intent = await ok(
    admin.POST('/api/v1/shared/uploads/intent', {
      body: { kind: 'course_package', mime: 'application/zip', size: file.length, filename: `${name}.zip` },
    }),
  )
  const form = new FormData()
  for (const [field, value] of Object.entries(intent.presignedPost.fields)) form.append(field, value)
  form.append('file', new Blob([new Uint8Array(file)], { type: 'application/zip' }), `${name}.zip`)
  expect((await fetch(intent.presignedPost.url, { method: 'POST', body: form })).ok).toBe(true)
  await ok(admin.POST('/api/v1/shared/uploads/{upload_id}/finalize', { params: { path: { upload_id: intent.uploadId } } }))
  let job = await ok(admin.POST('/api/v1/learn/course-imports', { body: { uploadId: intent.uploadId } }))
  while (job.status === 'running') {
    await sleep(200)
    job = await ok(admin.GET('/api/v1/learn/course-imports/{import_id}', { params: { path: { import_id: job.id } } }))
  }
  expect(job).toMatchObject({ status: 'complete', standard: 'cmi5', errors: [] })
  return job.courseId!
}

/** A crew member on a ship with the course: their client, assignment and registration. */
async function enrolled(firstName: string, courseId: string) {
  const person = await createCrew(admin, firstName, 'Player')
  const ship = await createShip(admin, `MV ${firstName}`)
  const assignment = await assign(admin, person.id, ship.id, 'Deckhand')
  await ok(admin.POST('/api/v1/learn/assignments/bulk/courses', { body: { assignmentIds: [assignment.id], courseIds: [courseId] } }))
  const registrations = await ok(admin.GET('/api/v1/learn/registrations', { params: { query: { assignment_id: assignment.id } } }))
  const crew = createSeaworthyClient({ baseUrl: service.baseUrl, token: (await signInToken(person.email)).access_token })
  return { person, assignment, registrationId: registrations.items[0]!.id, crew }
}

async function signInToken(email: string) {
  return ok(createSeaworthyClient({ baseUrl: service.baseUrl }).POST('/api/v1/auth/token', { body: { email, password: PASSWORD } }))
}

/** The codes of the assignment's readiness blockers and warnings. */
async function readinessCodes(assignmentId: string): Promise<string[]> {
  const readiness = await ok(
    admin.GET('/api/v1/learn/assignments/{assignment_id}/readiness', { params: { path: { assignment_id: assignmentId } } }),
  )
  return [...readiness.blockers, ...readiness.warnings].map((issue: { code: string }) => issue.code)
}

/** The verbs of the registration's statements, oldest first, as an admin reads them from the LRS. */
async function verbs(registrationId: string): Promise<string[]> {
  const res = await fetch(`${service.baseUrl}/api/v1/learn/xapi/statements?registration=${registrationId}&ascending=true&limit=500`, {
    headers: { authorization: `Bearer ${(await signInToken(ADMIN.email)).access_token}`, 'x-experience-api-version': '1.0.3' },
  })
  const body = (await res.json()) as { statements: { verb: { id: string } }[] }
  return body.statements.map((s) => s.verb.id.split('/').at(-1)!)
}

describe('cmi5 packages played in a browser', () => {
  it('passes the mastery-score course through its quiz: registration, readiness, event and statements follow', async () => {
    const courseId = await importFixture('masteryscore_responsive')
    const { assignment, registrationId, crew, person } = await enrolled('Quinn', courseId)
    expect(await readinessCodes(assignment.id)).toContain('course_not_passed')

    const launched = await ok(
      crew.POST('/api/v1/learn/registrations/{registration_id}/launch', {
        params: { path: { registration_id: registrationId } },
        body: { returnUrl: `${service.baseUrl}/console/` },
      }),
    )
    expect(launched).toMatchObject({ standard: 'cmi5', launchMethod: 'OwnWindow' })
    const contentOrigin = new URL(launched.url).origin
    expect(contentOrigin).not.toBe(new URL(service.baseUrl).origin)

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    // Signed in to the console in this browser: the course's script, on its own origin, reaches none of it.
    await signInAs(page, service.baseUrl, person.email)
    // The AU asks for its bookmark once initialized; a click before that answer sets one, and the AU then offers
    // to resume it. Navigate only after the AU has read it, as a learner would after the course has loaded.
    const bookmarkRead = page.waitForResponse(
      (response) => response.request().method() === 'GET' && /\/activities\/state\?.*stateId=suspendData/.test(response.url()),
    )
    await page.goto(launched.url)
    await bookmarkRead
    const reach = await page.evaluate(async (api) => {
      const frame = document.createElement('iframe')
      frame.src = `${api}/console/`
      await new Promise((resolve) => {
        frame.onload = resolve
        document.body.append(frame)
      })
      let framed: string | null
      try {
        framed = frame.contentWindow!.localStorage.getItem('seaworthy.session')
      } catch {
        framed = 'denied'
      }
      frame.remove()
      const me = await fetch(`${api}/api/v1/users/me`, { credentials: 'include' }).then(
        (r) => r.status,
        () => 'refused',
      )
      return { own: localStorage.getItem('seaworthy.session'), cookies: document.cookie, framed, me }
    }, service.baseUrl)
    const { me, ...storage } = reach
    expect(storage).toEqual({ own: null, cookies: '', framed: 'denied' })
    expect(me).not.toBe(200)
    await page.locator('.navmenuitem', { hasText: 'Quiz' }).first().click()
    await page.getByRole('button', { name: /Select correct answers/ }).click()
    await page.getByRole('button', { name: 'Submit Answers' }).click()
    await page.getByText('You achieved a passing score.').waitFor()
    await screenshot(page, 'cmi5-mastery-passed')
    await page.getByRole('button', { name: 'Exit the Course' }).click()
    // cmi5's returnURL: the course terminates, then sends the learner back to the console.
    await page.waitForURL(`${service.baseUrl}/console/**`)

    const registration = await ok(
      crew.GET('/api/v1/learn/registrations/{registration_id}', { params: { path: { registration_id: registrationId } } }),
    )
    expect(registration).toMatchObject({ status: 'passed', attempt_count: 1, score_percent: 100 })
    expect(await readinessCodes(assignment.id)).not.toContain('course_not_passed')
    const events = await ok(admin.GET('/api/v1/shared/audit-events', { params: { query: { type: 'registration.passed' } } }))
    expect(events.items.map((e: { target: { id: string | null } }) => e.target.id)).toContain(registrationId)
    const seen = await verbs(registrationId)
    expect(seen.slice(0, 2)).toEqual(['launched', 'initialized'])
    expect(seen).toEqual(expect.arrayContaining(['answered', 'passed', 'satisfied', 'terminated']))
    expect(seen.at(-1)).toBe('terminated')
    await context.close()
  })

  it('passes the eight-AU course once seven lessons have completed on launch and the quiz is passed', async () => {
    const courseId = await importFixture('multi_au_framed')
    const { registrationId, crew } = await enrolled('Rowan', courseId)
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const launch = async (auIndex: number) => {
      const launched = await ok(
        crew.POST('/api/v1/learn/registrations/{registration_id}/launch', {
          params: { path: { registration_id: registrationId } },
          body: { auIndex },
        }),
      )
      await page.goto(launched.url)
    }
    const count = async (verb: string) => (await verbs(registrationId)).filter((seen) => seen === verb).length
    // The seven lessons complete as they launch (`complete=launch`): each record is awaited before the next
    // launch abandons its session.
    for (let auIndex = 0; auIndex < 7; auIndex++) {
      await launch(auIndex)
      await expect.poll(() => count('completed'), { timeout: 30_000 }).toBe(auIndex + 1)
    }
    expect(
      (await ok(crew.GET('/api/v1/learn/registrations/{registration_id}', { params: { path: { registration_id: registrationId } } })))
        .status,
    ).toBe('in_progress')
    // The eighth is the quiz, CompletedAndPassed.
    await launch(7)
    await page.getByRole('button', { name: /Select correct answers/ }).click()
    await page.getByRole('button', { name: 'Submit Answers' }).click()
    const status = async () =>
      (await ok(crew.GET('/api/v1/learn/registrations/{registration_id}', { params: { path: { registration_id: registrationId } } })))
        .status
    await expect.poll(status, { timeout: 30_000 }).toBe('passed')
    const registration = await ok(
      crew.GET('/api/v1/learn/registrations/{registration_id}', { params: { path: { registration_id: registrationId } } }),
    )
    expect(registration.status).toBe('passed')
    const seen = await verbs(registrationId)
    expect(seen.filter((verb) => verb === 'abandoned')).toHaveLength(7)
    expect(seen.filter((verb) => verb === 'satisfied')).toHaveLength(1) // the course: this package has no blocks
    await context.close()
  })

  it("passes the demo course, written for this project, with its own quiz and cmi5's client library", async () => {
    const courseId = await importDemoCourse()
    const { registrationId, crew } = await enrolled('Sasha', courseId)
    const launched = await ok(
      crew.POST('/api/v1/learn/registrations/{registration_id}/launch', {
        params: { path: { registration_id: registrationId } },
        body: { returnUrl: `${service.baseUrl}/console/` },
      }),
    )
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    await page.goto(launched.url)
    await answerQuiz(page, RIGHT_ANSWERS)
    await page.getByRole('button', { name: 'Submit answers' }).click()
    await page.getByText('5 of 5 right: passed.').waitFor()
    await screenshot(page, 'demo-course-passed')
    await page.getByRole('button', { name: 'Exit' }).click()
    await page.waitForURL(`${service.baseUrl}/console/**`)
    const registration = await ok(
      crew.GET('/api/v1/learn/registrations/{registration_id}', { params: { path: { registration_id: registrationId } } }),
    )
    expect(registration).toMatchObject({ status: 'passed', score_percent: 100, attempt_count: 1 })
    const answered = Array(5).fill('answered')
    expect(await verbs(registrationId)).toEqual(['launched', 'initialized', ...answered, 'completed', 'passed', 'satisfied', 'terminated'])
    await context.close()
  })

  it('fails the demo course, tries again from My training and passes: completed once, the contract turns ready', async () => {
    const courseId = await importDemoCourse()
    const { assignment, registrationId, person } = await enrolled('Tove', courseId)
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    await signInAs(page, service.baseUrl, person.email)
    const takeQuiz = async (button: string, answers: string[], outcome: string) => {
      await page.goto(`${service.baseUrl}/console/me/training`)
      await page.getByRole('button', { name: new RegExp(`^${button}`) }).click()
      await answerQuiz(page, answers)
      await page.getByRole('button', { name: 'Submit answers' }).click()
      await page.getByText(outcome).waitFor()
      await page.getByRole('button', { name: 'Exit' }).click()
      await page.waitForURL(`${service.baseUrl}/console/me/training`)
    }
    const wrong = [
      'From the master on the day',
      'three long blasts',
      'fire',
      'The master, by word of mouth',
      'lifejacket, warm clothing, immersion suit',
    ]
    await takeQuiz('Start', wrong, '2 of 5 right: not passed this time.')
    await takeQuiz('Try again', RIGHT_ANSWERS, '5 of 5 right: passed.')
    await page.goto(`${service.baseUrl}/console/me/contract`)
    await expect.poll(() => page.getByTestId('verdict').first().textContent()).toBe('Ready')
    await screenshot(page, 'demo-course-retried')
    const seen = (await verbs(registrationId)).filter((verb) => verb !== 'answered')
    expect(seen).toEqual([
      'launched',
      'initialized',
      'completed',
      'failed',
      'terminated',
      'launched',
      'initialized',
      'passed',
      'satisfied',
      'terminated',
    ])
    expect(await readinessCodes(assignment.id)).toEqual([])
    // Every answer carries its question's definition: the course's question difficulty lists the five.
    const questions = await ok(
      admin.GET('/api/v1/learn/admin/analytics/course-difficulty/{course_id}/questions', { params: { path: { course_id: courseId } } }),
    )
    expect(questions.data).toHaveLength(5)
    await context.close()
  })

  it('tells the learner in words when the training service refuses their answers', async () => {
    const courseId = await importDemoCourse()
    const { registrationId, crew } = await enrolled('Ulla', courseId)
    const launched = await ok(
      crew.POST('/api/v1/learn/registrations/{registration_id}/launch', {
        params: { path: { registration_id: registrationId } },
        body: {},
      }),
    )
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    await page.goto(launched.url)
    await answerQuiz(page, RIGHT_ANSWERS)
    // The session ends (as a newer launch would end it) before the learner submits: the LRS refuses with 403.
    await ok(
      crew.POST('/api/v1/learn/registrations/{registration_id}/launch', {
        params: { path: { registration_id: registrationId } },
        body: {},
      }),
    )
    await page.getByRole('button', { name: 'Submit answers' }).click()
    await page.getByText(/^Your answers were not recorded: This launch session has ended/).waitFor()
    expect(await page.getByRole('button', { name: 'Submit answers' }).isEnabled()).toBe(true)
    await context.close()
  })
})

const RIGHT_ANSWERS = [
  'On the muster list',
  'seven or more short blasts and one long',
  'man overboard',
  'The master, by word of mouth',
  'lifejacket, warm clothing, immersion suit',
]

/** The demo course's three pages read, and its quiz answered with the given labels (not yet submitted). */
async function answerQuiz(page: Page, answers: string[]): Promise<void> {
  await page.getByRole('heading', { name: 'The muster list' }).waitFor()
  for (let n = 0; n < 3; n++) await page.getByRole('button', { name: 'Next' }).click()
  for (const answer of answers) await page.getByLabel(answer).check()
}

/** The demo course (demo-course/), built as a first start builds it, imported: the course's id. */
async function importDemoCourse(): Promise<string> {
  const zip = join(await mkdtemp(join(tmpdir(), 'seaworthy-demo-course-')), 'demo-course.zip')
  await promisify(execFile)(process.execPath, ['scripts/build-demo-course.mjs', zip])
  return importPackage('demo-course', await readFile(zip))
}
