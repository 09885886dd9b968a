import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, FrameLocator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { zipOf } from '../test/fixtures/packages.js'
import { launchBrowser, screenshot } from './browser.js'
import { importCourse, registeredLearner, registrationAfter } from './scorm-courses.js'
import { createShip, ok, PASSWORD, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// A learner who fails the test never passes the course (DECISIONS §13.6): Rustici's "Golf Explained"
// (SCORM 1.2, which sets `completed` on reaching its test page) and a SCORM 2004 SCO of the same kind that
// this test builds (no passing score: it reports completion and success itself), played in Debian's
// chromium through the player to passed, to failed with every answer wrong, and to failed after the
// player's autocommit has sent `completed`. The browser's clock is driven past the autocommit's 30 s,
// so no test waits for it. Each course issues a certificate on pass; readiness waits for the course.

const ADMIN = { email: 'admin@results.browser.test', password: PASSWORD, domain: 'results.browser.test' }
const GOLF = join(import.meta.dirname, '../../shared/fixtures/scorm/RuntimeBasicCalls_SCORM12.zip')

/** A SCORM 2004 4th edition manifest of one SCO with no passing score (no primary objective measure). */
const MANIFEST_2004 = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="lookout-2004" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="org">
    <organization identifier="org"><title>Lookout</title>
      <item identifier="item" identifierref="sco"><title>Lookout</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco" type="webcontent" adlcp:scormType="sco" href="index.html"><file href="index.html"/></resource>
  </resources>
</manifest>
`

/** The 2004 SCO, built like Golf Explained: a lesson, then a test page that sets completion, a score from the answers (70 % passes), and Exit. */
const SCO_2004 = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Lookout</title></head>
<body>
<section id="lesson"><p>Every vessel shall at all times maintain a proper look-out by sight and hearing.</p>
<button id="next">Next</button></section>
<form id="test" hidden>
<fieldset><legend>A proper look-out is kept by</legend>
<label><input type="radio" name="q1" value="right">sight and hearing</label><label><input type="radio" name="q1" value="wrong">radar alone</label></fieldset>
<fieldset><legend>The look-out is kept</legend>
<label><input type="radio" name="q2" value="wrong">at night only</label><label><input type="radio" name="q2" value="right">at all times</label></fieldset>
<fieldset><legend>In restricted visibility, sound signals are</legend>
<label><input type="radio" name="q3" value="right">required</label><label><input type="radio" name="q3" value="wrong">optional</label></fieldset>
<button type="button" id="submit">Submit Answers</button>
</form>
<p id="score"></p>
<button id="exit">Exit</button>
<script>
var api = (function find(win) { for (var i = 0; win && i < 10; i++) { if (win.API_1484_11) return win.API_1484_11; if (win.parent === win) break; win = win.parent; } return null; })(window);
function set(name, value) { if (api.SetValue(name, value) !== 'true') throw new Error(name + ' refused: ' + api.GetLastError()); }
api.Initialize('');
set('cmi.completion_status', 'incomplete');
document.getElementById('next').onclick = function () {
  document.getElementById('lesson').hidden = true;
  document.getElementById('test').hidden = false;
  set('cmi.location', 'test');
  set('cmi.completion_status', 'completed');
};
document.getElementById('submit').onclick = function () {
  var right = 0;
  ['q1', 'q2', 'q3'].forEach(function (name, n) {
    var chosen = document.querySelector('input[name=' + name + ']:checked');
    var correct = chosen !== null && chosen.value === 'right';
    if (correct) right++;
    set('cmi.interactions.' + n + '.id', name);
    set('cmi.interactions.' + n + '.type', 'choice');
    set('cmi.interactions.' + n + '.learner_response', chosen ? chosen.value : 'none');
    set('cmi.interactions.' + n + '.result', correct ? 'correct' : 'incorrect');
  });
  var scaled = Math.round((right / 3) * 100) / 100;
  set('cmi.score.scaled', String(scaled));
  set('cmi.success_status', scaled >= 0.7 ? 'passed' : 'failed');
  document.getElementById('score').textContent = 'Score: ' + Math.round(scaled * 100);
};
document.getElementById('exit').onclick = function () { api.Terminate(''); document.getElementById('score').textContent += ' finished'; };
</script>
</body></html>
`

let service: RunningService
let browser: Browser
let admin: SeaworthyClient
let shipId: string
const courses = { '1.2': '', '2004': '' }

beforeAll(async () => {
  service = await startService(ADMIN)
  admin = await signIn(service.baseUrl, ADMIN.email)
  shipId = (await createShip(admin, 'MV Results')).id
  browser = await launchBrowser()
  courses['1.2'] = await importCourse(admin, await readFile(GOLF))
  courses['2004'] = await importCourse(admin, await zipOf({ 'imsmanifest.xml': MANIFEST_2004, 'index.html': SCO_2004 }))
  for (const courseId of Object.values(courses)) {
    const certificate = { certificateType: 'stcw_basic_safety' as const, validityMonths: 60 }
    await ok(admin.PATCH('/api/v1/courses/{course_id}', { params: { path: { course_id: courseId } }, body: { certificate } }))
  }
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

type Version = keyof typeof courses
type Learner = Awaited<ReturnType<typeof registeredLearner>>

/** How the SCO is played in the player: to its test page, the answers, Submit, Exit. */
const scos: Record<Version, { toTest(sco: FrameLocator): Promise<void>; answer(sco: FrameLocator, right: boolean): Promise<void> }> = {
  '1.2': {
    // Golf Explained frames its pages in #contentFrame; page 16 of 16 is the test, which sets `completed`.
    async toTest(sco) {
      for (let page = 1; page < 16; page++) await sco.getByRole('button', { name: 'Next ->' }).click()
      await sco.frameLocator('#contentFrame').getByRole('button', { name: 'Submit Answers' }).waitFor()
    },
    async answer(sco, right) {
      const test = sco.frameLocator('#contentFrame')
      const questions = test.locator('div.question')
      for (let n = 0; n < (await questions.count()); n++) {
        const question = questions.nth(n)
        const number = question.locator('input[type=text]')
        // A numeric question shows its answer beside the field: "(2)".
        if ((await number.count()) > 0)
          await number.fill(right ? /\((\d+)\)/.exec(await question.locator('.correctAnswer').innerText())![1] : '99')
        else
          await question
            .locator(right ? '.correctAnswer input' : '.answer input')
            .first()
            .check()
      }
      await test.getByRole('button', { name: 'Submit Answers' }).click()
      await test.getByText(/^Score: /).waitFor()
      await sco.getByRole('button', { name: 'Exit' }).click()
    },
  },
  '2004': {
    async toTest(sco) {
      await sco.getByRole('button', { name: 'Next' }).click()
      await sco.getByRole('button', { name: 'Submit Answers' }).waitFor()
    },
    async answer(sco, right) {
      for (const name of ['q1', 'q2', 'q3']) await sco.locator(`input[name=${name}][value=${right ? 'right' : 'wrong'}]`).check()
      await sco.getByRole('button', { name: 'Submit Answers' }).click()
      await sco.getByText(/^Score: /).waitFor()
      await sco.getByRole('button', { name: 'Exit' }).click()
      await sco.getByText(/finished$/).waitFor()
    },
  },
}

/** The completion the SCO committed, as the commit request carried it. */
const committedCompletion = (version: Version, body: string | null) => {
  const cmi = JSON.parse(body ?? '{}').cmi ?? {}
  return version === '1.2' ? cmi.core?.lesson_status : cmi.completion_status
}

/**
 * Launches and plays the SCO to its test page. With `autocommit`, the browser's clock is run past the
 * player's 30 s autocommit, which sends the `completed` the test page set; the registration must not move.
 */
async function play(version: Version, learner: Learner, options: { right: boolean; autocommit: boolean; shot?: string }) {
  const launched = await ok(
    learner.crew.POST('/api/v1/learn/registrations/{registration_id}/launch', {
      params: { path: { registration_id: learner.registrationId } },
      body: {},
    }),
  )
  const context = await browser.newContext()
  const page: Page = await context.newPage()
  await page.clock.install()
  // Whichever commit first carries `completed` (the clock also runs on its own: it may already have fired).
  const completedCommit =
    options.autocommit &&
    page.waitForRequest((request) => request.url().endsWith('/commit') && committedCompletion(version, request.postData()) === 'completed')
  await page.goto(launched.url)
  const sco = page.frameLocator('iframe[title="Course"]')
  await scos[version].toTest(sco)
  if (completedCommit) {
    await page.clock.fastForward(30_000)
    expect(await (await (await completedCommit).response())?.json()).toEqual({ result: 'true' })
    expect(await registration(learner)).toMatchObject({ status: 'in_progress', attempt_count: 0 })
  }
  if (options.shot) await screenshot(page, options.shot)
  await scos[version].answer(sco, options.right)
  // The final commit is a beacon, which closing the page could cancel: close once the session's attempt is recorded.
  await registrationAfter(learner.crew, learner.registrationId, 1)
  await context.close()
}

const registration = (learner: Learner) =>
  ok(learner.crew.GET('/api/v1/learn/registrations/{registration_id}', { params: { path: { registration_id: learner.registrationId } } }))

/** The registration after the session, the certificates the course issued, and whether readiness still waits for the course. */
async function outcome(learner: Learner) {
  const after = await registrationAfter(learner.crew, learner.registrationId, 1)
  const certificates = await ok(admin.GET('/api/v1/crew/users/{user_id}/certificates', { params: { path: { user_id: learner.userId } } }))
  const verdict = await ok(
    admin.GET('/api/v1/learn/assignments/{assignment_id}/readiness', { params: { path: { assignment_id: learner.assignmentId } } }),
  )
  return {
    status: after.status,
    attempts: after.attempt_count,
    score: after.score_percent,
    certificates: certificates.map((c) => c.certificateType),
    courseInReadiness: [...verdict.blockers, ...verdict.warnings].some((issue) => issue.code.startsWith('course_')),
  }
}

const PASSED = { status: 'passed', attempts: 1, score: 100, certificates: ['stcw_basic_safety'], courseInReadiness: false }
const FAILED = { status: 'failed', attempts: 1, score: 0, certificates: [], courseInReadiness: true }

describe.each(['1.2', '2004'] as const)('SCORM %s played in the player', (version) => {
  const learner = () => registeredLearner(service.baseUrl, admin, shipId, courses[version])

  it('every answer right: passed, the certificate issued, readiness no longer waits for the course', async () => {
    const l = await learner()
    await play(version, l, { right: true, autocommit: false, shot: `scorm-${version}-test-page` })
    expect(await outcome(l)).toEqual(PASSED)
  })

  it('every answer wrong: failed, no certificate, readiness still waits', async () => {
    const l = await learner()
    await play(version, l, { right: false, autocommit: false })
    expect(await outcome(l)).toEqual(FAILED)
  })

  it('`completed` sent by the autocommit, then every answer wrong: failed, no certificate, readiness still waits', async () => {
    const l = await learner()
    await play(version, l, { right: false, autocommit: true })
    expect(await outcome(l)).toEqual(FAILED)
  })
})
