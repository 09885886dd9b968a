import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { launchBrowser, screenshot, signInAs } from './browser.js'
import { importCourse, registeredLearner, registrationAfter } from './scorm-courses.js'
import { createShip, ok, PASSWORD, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// A SCORM 2004 course played by its own sequencing in one launch (DECISIONS §13.6): Rustici's "Golf
// Explained" post-test rollup example (4th edition), in chromium. Its launch page loads jQuery and jQuery UI
// from a CDN for its notes window: the test answers those with a stand-in that does nothing.

const GOLF = join(import.meta.dirname, '../../shared/fixtures/scorm/SequencingPostTestRollup4thEd_SCORM20044thEdition.zip')
const ADMIN = { email: 'admin@sequencing.browser.test', password: PASSWORD, domain: 'sequencing.browser.test' }
const JQUERY_STAND_IN = 'window.jQuery = window.$ = function () { return { dialog: function () {}, val: function () { return "" } } };'

// A safety net for a busy machine (several browsers and services on two cores), not a speed assumption.
const SAFETY = { timeout: 30_000 }

let service: RunningService
let browser: Browser
let admin: SeaworthyClient
let courseId: string
let shipId: string

beforeAll(async () => {
  service = await startService(ADMIN)
  admin = await signIn(service.baseUrl, ADMIN.email)
  shipId = (await createShip(admin, 'MV Rollup')).id
  courseId = await importCourse(admin, await readFile(GOLF))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

/** Launch the course and open the player, the CDN answered and every dialog counted and dismissed. */
async function open(crew: SeaworthyClient, registrationId: string) {
  const launched = await ok(
    crew.POST('/api/v1/learn/registrations/{registration_id}/launch', { params: { path: { registration_id: registrationId } }, body: {} }),
  )
  const page = await browser.newPage()
  await page.route('http://ajax.googleapis.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: JQUERY_STAND_IN }))
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await page.goto(launched.url)
  return { page, dialogs }
}

const current = (page: Page) => page.locator('.player-outline [aria-current]')
/** The launch page of the SCO framed now (the Golf SCOs share one page, told apart by `content=`). */
const sco = (page: Page, content: string) => page.frames().find((frame) => frame.url().includes(`content=${content}`))!

async function skipToTestAndScore(page: Page, score: number) {
  await expect.poll(() => current(page).textContent(), SAFETY).toBe('Playing the Game')
  await page.frameLocator('iframe[title="Course"]').locator('#butJump').click()
  await expect.poll(() => current(page).textContent(), SAFETY).toBe('Quiz')
  await expect.poll(() => sco(page, 'assessment')?.evaluate(() => typeof (window as any).RecordTest), SAFETY).toBe('function')
  await sco(page, 'assessment').evaluate((value) => (window as any).RecordTest(value), score)
  await page.getByRole('button', { name: 'Exit course' }).click()
  await page.getByText('You have left the course').waitFor()
}

describe('a SCORM 2004 course with sequencing, in one launch', () => {
  it("skips to the post-test with the SCO's own jump and passes it: the rollup passes the course", async () => {
    const { crew, registrationId } = await registeredLearner(service.baseUrl, admin, shipId, courseId)
    const { page, dialogs } = await open(crew, registrationId)
    await skipToTestAndScore(page, 100)
    expect(await registrationAfter(crew, registrationId, 2)).toMatchObject({ status: 'passed', attempt_count: 2 })
    const sessions = await ok(
      crew.GET('/api/v1/learn/registrations/{registration_id}/sessions', { params: { path: { registration_id: registrationId } } }),
    )
    // One session per SCO delivered, each with its own outcome: Playing the Game (0), then the Quiz (4).
    expect(sessions.items.map((s) => [s.auIndex, s.outcome, s.scoreScaled]).sort()).toEqual([
      [0, null, null],
      [4, 'passed', 1],
    ])
    expect(dialogs).toEqual([])
    await page.close()

    // A training admin reads the learner's progress per activity in the console.
    const console = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage()
    await signInAs(console, service.baseUrl, ADMIN.email)
    await console.goto(`${service.baseUrl}/console/learning`)
    await console.getByRole('tab', { name: 'Course packages' }).click()
    await console.getByRole('combobox', { name: 'Course' }).click()
    await console.locator(`[role=option][value="${courseId}"]`).click()
    await console.getByRole('row').filter({ hasText: 'Passed' }).getByRole('button', { name: 'Sessions' }).click()
    const progress = console.getByRole('table', { name: 'Progress by activity' })
    await progress.getByRole('row').filter({ hasText: 'Quiz' }).getByText('Passed (100%)').waitFor()
    expect(await progress.getByRole('row').filter({ hasText: 'Handicapping' }).textContent()).toContain('Not started')
    await console.close()
  })

  it('fails the post-test: the course is not passed', async () => {
    const { crew, registrationId } = await registeredLearner(service.baseUrl, admin, shipId, courseId)
    const { page, dialogs } = await open(crew, registrationId)
    await skipToTestAndScore(page, 30)
    expect(await registrationAfter(crew, registrationId, 2)).toMatchObject({ status: 'failed', attempt_count: 2 })
    expect(dialogs).toEqual([])
    await page.close()
  })

  it('resumes at the activity left after suspend all, each SCO with its own data', async () => {
    const { crew, registrationId } = await registeredLearner(service.baseUrl, admin, shipId, courseId)
    const first = await open(crew, registrationId)
    await expect.poll(() => current(first.page).textContent(), SAFETY).toBe('Playing the Game')
    // Etiquette is disabled until Playing is completed (a precondition on a global objective's completion).
    await expect
      .poll(() => sco(first.page, 'playing')?.evaluate(() => typeof (window as any).ScormProcessSetValue), SAFETY)
      .toBe('function')
    await sco(first.page, 'playing').evaluate(() => (window as any).ScormProcessSetValue('cmi.completion_status', 'completed'))
    // The player takes Continue once the runtime holds it valid (the completion reaching the precondition's
    // objective); clicked before, the player answers "not available" (seen under CI's load).
    await expect
      .poll(
        () => sco(first.page, 'playing').parentFrame()?.evaluate(() => (window as any).API_1484_11.GetValue('adl.nav.request_valid.continue')),
        SAFETY,
      )
      .toBe('true')
    await first.page.getByRole('button', { name: 'Continue' }).click()
    await expect.poll(() => current(first.page).textContent(), SAFETY).toBe('Etiquette')
    await first.page.getByRole('button', { name: 'Suspend and leave' }).click()
    await first.page.getByText('You have left the course').waitFor()
    await registrationAfter(crew, registrationId, 2)
    await first.page.close()

    const again = await open(crew, registrationId)
    await expect.poll(() => current(again.page).textContent(), SAFETY).toBe('Etiquette')
    // On a phone the outline and buttons wrap within the width: where the learner is stays in sight.
    await again.page.setViewportSize({ width: 390, height: 844 })
    expect(await again.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    expect(await current(again.page).isVisible()).toBe(true)
    expect(await again.page.getByRole('button', { name: 'Continue' }).isVisible()).toBe(true)
    await again.page.frameLocator('iframe[title="Course"]').frameLocator('#contentFrame').locator('h1').first().waitFor()
    await screenshot(again.page, 'scorm-sequencing-phone')
    expect([...first.dialogs, ...again.dialogs].filter((d) => !d.startsWith('Would you like to resume'))).toEqual([])
    await again.page.close()
  })
})
