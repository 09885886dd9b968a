import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { scormPackage } from '../test/fixtures/packages.js'
import { launchBrowser, screenshot } from './browser.js'
import { importCourse, registeredLearner, registrationAfter } from './scorm-courses.js'
import { createShip, ok, PASSWORD, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// SCORM 1.2 and 2004 packages made by simple-scorm-packager, imported and played in Debian's chromium
// through the player on the content origin (scorm-again), against the service on PostgreSQL. The SCO
// is a page of the kind authoring tools write: it finds the API in its parent frames and calls it
// directly, then the learner passes, fails, or leaves to resume later.

const ADMIN = { email: 'admin@scorm.browser.test', password: PASSWORD, domain: 'scorm.browser.test' }

/** The SCO: one page, the same for both versions but for the API's names and elements. */
function scoPage(version: '1.2' | '2004'): string {
  const v12 = version === '1.2'
  const api = v12
    ? { name: 'API', init: 'LMSInitialize', get: 'LMSGetValue', set: 'LMSSetValue', commit: 'LMSCommit', finish: 'LMSFinish' }
    : { name: 'API_1484_11', init: 'Initialize', get: 'GetValue', set: 'SetValue', commit: 'Commit', finish: 'Terminate' }
  const el = v12
    ? { entry: 'cmi.core.entry', location: 'cmi.core.lesson_location', exit: 'cmi.core.exit', response: 'student_response', wrong: 'wrong' }
    : { entry: 'cmi.entry', location: 'cmi.location', exit: 'cmi.exit', response: 'learner_response', wrong: 'incorrect' }
  const outcome = (passed: boolean) =>
    v12
      ? `set('cmi.core.score.raw', '${passed ? 90 : 40}'); set('cmi.core.lesson_status', '${passed ? 'passed' : 'failed'}');`
      : `set('cmi.score.scaled', '${passed ? 0.9 : 0.4}'); set('cmi.completion_status', 'completed'); set('cmi.success_status', '${passed ? 'passed' : 'failed'}');`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Lesson</title></head>
<body>
<p id="state">starting</p>
<button id="pass">Pass</button> <button id="fail">Fail</button> <button id="leave">Leave</button>
<script>
function findApi(win) {
  for (var hops = 0; win && hops < 10; hops++) {
    if (win.${api.name}) return win.${api.name};
    if (win.parent === win) break;
    win = win.parent;
  }
  return null;
}
var api = findApi(window);
var state = document.getElementById('state');
function set(name, value) { if (api.${api.set}(name, value) !== 'true') throw new Error(name + ' refused'); }
function finish() { api.${api.commit}(''); api.${api.finish}(''); state.textContent = 'finished'; }
function answer(correct) {
  set('cmi.interactions.0.id', 'q1');
  set('cmi.interactions.0.type', 'choice');
  set('cmi.interactions.0.${el.response}', correct ? 'b' : 'c');
  set('cmi.interactions.0.result', correct ? 'correct' : '${el.wrong}');
}
api.${api.init}('');
state.textContent = 'entry=' + api.${api.get}('${el.entry}') + ' location=' + api.${api.get}('${el.location}') + ' suspend=' + api.${api.get}('cmi.suspend_data');
document.getElementById('pass').onclick = function () { answer(true); ${outcome(true)} finish(); };
document.getElementById('fail').onclick = function () { answer(false); ${outcome(false)} finish(); };
document.getElementById('leave').onclick = function () {
  set('${el.location}', 'page-2'); set('cmi.suspend_data', 'answers=b'); set('${el.exit}', 'suspend'); finish();
};
</script>
</body></html>
`
}

let service: RunningService
let browser: Browser
let admin: SeaworthyClient
let shipId: string

beforeAll(async () => {
  service = await startService(ADMIN)
  admin = await signIn(service.baseUrl, ADMIN.email)
  shipId = (await createShip(admin, 'MV Scorm')).id
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

/** A simple-scorm-packager package of the SCO page, imported: the course id. */
async function importScorm(version: '1.2' | '2004 4th Edition'): Promise<string> {
  const zip = await scormPackage(
    version,
    { 'index.html': scoPage(version === '1.2' ? '1.2' : '2004') },
    { masteryScore: 80, title: `Lookout ${version}` },
  )
  return importCourse(admin, zip)
}

/** A crew member of their own registered on the course: their client and the registration id. */
const learner = (courseId: string) => registeredLearner(service.baseUrl, admin, shipId, courseId)

/** Launch, open the player, wait for the SCO to start: its frame and what it read at start. */
async function play(crew: SeaworthyClient, registrationId: string, action: 'Pass' | 'Fail' | 'Leave', shot?: string) {
  const launched = await ok(
    crew.POST('/api/v1/learn/registrations/{registration_id}/launch', { params: { path: { registration_id: registrationId } }, body: {} }),
  )
  const page = await browser.newPage()
  await page.goto(launched.url)
  const sco = page.frameLocator('iframe[title="Course"]')
  await sco.locator('#state').filter({ hasText: 'entry=' }).waitFor()
  const started = await sco.locator('#state').textContent()
  if (shot) await screenshot(page, shot)
  await sco.getByRole('button', { name: action }).click()
  await sco.locator('#state').filter({ hasText: 'finished' }).waitFor()
  await page.close()
  return started
}

const ended = registrationAfter

describe.each([
  ['1.2', '1.2'],
  ['2004', '2004 4th Edition'],
] as const)('a SCORM %s package in the player', (name, version) => {
  let courseId: string
  beforeAll(async () => {
    courseId = await importScorm(version)
  })

  it('plays to passed: the registration passes with its score, and the LRS has the session', async () => {
    const { crew, registrationId } = await learner(courseId)
    expect(await play(crew, registrationId, 'Pass', `scorm-${name}-player`)).toContain('entry=ab-initio')
    expect(await ended(crew, registrationId, 1)).toMatchObject({ status: 'passed', score_percent: 90, attempt_count: 1 })
    const signedIn = await fetch(`${service.baseUrl}/api/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
    })
    const statements = await fetch(`${service.baseUrl}/api/v1/learn/xapi/statements?registration=${registrationId}&ascending=true`, {
      headers: { authorization: `Bearer ${(await signedIn.json()).access_token}`, 'x-experience-api-version': '1.0.3' },
    })
    expect(statements.status).toBe(200)
    const verbs = ((await statements.json()).statements as { verb: { id: string } }[]).map((s) => s.verb.id.split('/').at(-1))
    expect(verbs).toEqual(['initialized', 'answered', 'completed', 'passed', 'terminated'])
  })

  it('plays to failed under the mastery score', async () => {
    const { crew, registrationId } = await learner(courseId)
    await play(crew, registrationId, 'Fail')
    expect(await ended(crew, registrationId, 1)).toMatchObject({ status: 'failed', score_percent: 40, attempt_count: 1 })
  })

  it('resumes from the suspend data and location the last session left', async () => {
    const { crew, registrationId } = await learner(courseId)
    await play(crew, registrationId, 'Leave')
    expect(await ended(crew, registrationId, 1)).toMatchObject({ status: 'in_progress', attempt_count: 1 })
    expect(await play(crew, registrationId, 'Pass')).toBe('entry=resume location=page-2 suspend=answers=b')
    expect(await ended(crew, registrationId, 2)).toMatchObject({ status: 'passed', attempt_count: 2 })
  })
})
