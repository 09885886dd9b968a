import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { zipOf } from '../test/fixtures/packages.js'
import { manifest2004 } from '../test/fixtures/scorm-manifests.js'
import { launchBrowser } from './browser.js'
import { importCourse, registeredLearner, registrationAfter } from './scorm-courses.js'
import { createShip, ok, PASSWORD, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// SCORM 2004 as authors write it (DECISIONS §13.6), played in chromium: an item that launches an asset,
// and a SCO that sets its objectives by the ids the manifest gives them, as the Golf examples do.

const ADMIN = { email: 'admin@scorm2004.browser.test', password: PASSWORD, domain: 'scorm2004.browser.test' }

/** A SCO that finds each manifest objective by id (never creating one), sets it and completes; it says how many calls failed. */
const OBJECTIVE_SCO = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Objectives</title></head>
<body><p id="state">starting</p>
<script>
var api = window.parent.API_1484_11;
var failures = [];
function call(name, args) { var r = api[name].apply(api, args); if (api.GetLastError() !== '0') failures.push(name + ' ' + args[0] + ' ' + api.GetLastError()); return r; }
call('Initialize', ['']);
function indexOf(id) {
  var count = Number(call('GetValue', ['cmi.objectives._count']));
  for (var n = 0; n < count; n++) if (call('GetValue', ['cmi.objectives.' + n + '.id']) === id) return n;
  return -1;
}
var ids = ['lesson_done', 'knots'];
var found = ids.map(indexOf);
found.forEach(function (n) { if (n >= 0) call('SetValue', ['cmi.objectives.' + n + '.success_status', 'passed']); });
call('SetValue', ['cmi.completion_status', 'completed']);
call('SetValue', ['cmi.success_status', 'passed']);
call('Commit', ['']);
call('Terminate', ['']);
document.getElementById('state').textContent = 'found=' + found.join(',') + ' failures=' + failures.length;
</script></body></html>`

let service: RunningService
let browser: Browser
let admin: SeaworthyClient
let shipId: string

beforeAll(async () => {
  service = await startService(ADMIN)
  admin = await signIn(service.baseUrl, ADMIN.email)
  shipId = (await createShip(admin, 'MV Sequencing')).id
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

/** Launch and open the player, counting the dialogs (alert pop-ups) the content shows. */
async function open(crew: SeaworthyClient, registrationId: string) {
  const launched = await ok(
    crew.POST('/api/v1/learn/registrations/{registration_id}/launch', { params: { path: { registration_id: registrationId } }, body: {} }),
  )
  const page = await browser.newPage()
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await page.goto(launched.url)
  return { page, dialogs, frame: page.frameLocator('iframe[title="Course"]') }
}

describe('a SCORM 2004 package', () => {
  it('of an asset: the visit completes it and the course passes', async () => {
    const zip = await zipOf({
      'imsmanifest.xml': manifest2004([{ id: 'reading', title: 'Reading', href: 'reading.html', asset: true }]),
      'reading.html': '<!doctype html><html lang="en"><title>Reading</title><p id="text">Rules of the road</p></html>',
    })
    const { crew, registrationId } = await registeredLearner(service.baseUrl, admin, shipId, await importCourse(admin, zip))
    const { page, frame } = await open(crew, registrationId)
    await frame.locator('#text').waitFor()
    expect(await registrationAfter(crew, registrationId, 1)).toMatchObject({ status: 'passed', attempt_count: 1 })
    await page.close()
  })

  it("of a SCO that sets the manifest's objectives by id: every call succeeds, no pop-up", async () => {
    const sequencing = `<imsss:sequencing><imsss:objectives><imsss:primaryObjective objectiveID="lesson_done"/><imsss:objective objectiveID="knots"/></imsss:objectives></imsss:sequencing>`
    const zip = await zipOf({
      'imsmanifest.xml': manifest2004([{ id: 'lesson', title: 'Knots', href: 'lesson.html', sequencing }]),
      'lesson.html': OBJECTIVE_SCO,
    })
    const { crew, registrationId } = await registeredLearner(service.baseUrl, admin, shipId, await importCourse(admin, zip))
    const { page, dialogs, frame } = await open(crew, registrationId)
    expect(await frame.locator('#state').filter({ hasText: 'found=' }).textContent()).toBe('found=0,1 failures=0')
    expect(await registrationAfter(crew, registrationId, 1)).toMatchObject({ status: 'passed', attempt_count: 1 })
    expect(dialogs).toEqual([])
    await page.close()
  })
})
