import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { launchBrowser, screenshot, signInAs } from './browser.js'
import { addPassport, shellKept } from './offline.js'
import { importCourse } from './scorm-courses.js'
import { assign, createCrew, createShip, ok, PASSWORD, passportPdf, requirePassport, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// Courses taken offline (DECISIONS §16), in Debian's chromium with the network really cut: a crew member
// downloads ADL's cmi5 mastery-score course and Rustici's Golf Explained (SCORM 1.2) from My training, goes
// offline, plays both to passed from the device (the content origin's service worker), photographs a passport,
// reloads the console with no link, and comes back online: the queue syncs with no action, and the service has
// each registration passed once, one attempt each, each record once, and the passport with its scan.
// offline-ship-link.test.ts syncs a week's work on an emulated ship's link.

const ADMIN = { email: 'admin@offline.browser.test', password: PASSWORD, domain: 'offline.browser.test' }
const FIXTURES = join(import.meta.dirname, '../../shared/fixtures')

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

/** The verbs of a registration's statements, oldest first, as an admin reads them from the LRS. */
async function verbs(registrationId: string): Promise<string[]> {
  const token = await ok(admin.POST('/api/v1/auth/token', { body: { email: ADMIN.email, password: PASSWORD } }))
  const res = await fetch(`${service.baseUrl}/api/v1/learn/xapi/statements?registration=${registrationId}&ascending=true&limit=500`, {
    headers: { authorization: `Bearer ${token.access_token}`, 'x-experience-api-version': '1.0.3' },
  })
  const body = (await res.json()) as { statements: { verb: { id: string } }[] }
  return body.statements.map((s) => s.verb.id.split('/').at(-1) as string)
}

const count = (seen: string[], verb: string) => seen.filter((v) => v === verb).length

/** The assignment's readiness as the office reads it: its verdict and the codes of its blockers and warnings. */
async function readiness(assignmentId: string) {
  const answer = await ok(
    admin.GET('/api/v1/learn/assignments/{assignment_id}/readiness', { params: { path: { assignment_id: assignmentId } } }),
  )
  const codes = (issues: { code: string }[]) => issues.map((issue) => issue.code).sort()
  return { ready: answer.ready, blockers: codes(answer.blockers), warnings: codes(answer.warnings) }
}

/** Golf Explained to its test page, every answer right, Exit (as scorm-results.test.ts plays it). */
async function playGolf(page: Page) {
  const sco = page.frameLocator('iframe[title="Course"]')
  for (let n = 1; n < 16; n++) await sco.getByRole('button', { name: 'Next ->' }).click()
  const test = sco.frameLocator('#contentFrame')
  await test.getByRole('button', { name: 'Submit Answers' }).waitFor()
  const questions = test.locator('div.question')
  for (let n = 0; n < (await questions.count()); n++) {
    const question = questions.nth(n)
    const number = question.locator('input[type=text]')
    if ((await number.count()) > 0) await number.fill(/\((\d+)\)/.exec(await question.locator('.correctAnswer').innerText())?.[1] ?? '')
    else await question.locator('.correctAnswer input').first().check()
  }
  await test.getByRole('button', { name: 'Submit Answers' }).click()
  await test.getByText(/^Score: /).waitFor()
  await sco.getByRole('button', { name: 'Exit' }).click()
}

describe('courses taken offline', () => {
  it('downloads a cmi5 and a SCORM course, plays both to passed and photographs a passport with no link, and syncs once the link returns', async () => {
    const cmi5Course = await importCourse(admin, await readFile(join(FIXTURES, 'cmi5/masteryscore_responsive.zip')))
    const scormCourse = await importCourse(admin, await readFile(join(FIXTURES, 'scorm/RuntimeBasicCalls_SCORM12.zip')))
    // The role needs a passport: readiness moves on the office's side only once the queue reaches it.
    await requirePassport(admin, 'Deckhand')
    const person = await createCrew(admin, 'Oona', 'Offline')
    const ship = await createShip(admin, 'MV Offline')
    const assignment = await assign(admin, person.id, ship.id, 'Deckhand')
    const shipmate = await createCrew(admin, 'Sam', 'Shipmate')
    const theirs = await assign(admin, shipmate.id, ship.id, 'Deckhand')
    const courseIds = [cmi5Course, scormCourse]
    const assignmentIds = [assignment.id, theirs.id]
    await ok(admin.POST('/api/v1/learn/assignments/bulk/courses', { body: { assignmentIds, courseIds } }))
    const crew = await signIn(service.baseUrl, person.email)
    const listed = await ok(crew.GET('/api/v1/learn/registrations', { params: { query: { expand: true } } }))
    const [cmi5, scorm] = courseIds.map((id) => listed.items.find((r) => r.course_id === id)!)
    const registration = async (id: string) =>
      ok(crew.GET('/api/v1/learn/registrations/{registration_id}', { params: { path: { registration_id: id } } }))

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await signInAs(page, service.baseUrl, person.email)
    await page.goto(`${service.baseUrl}/console/me/training`)
    await page.getByRole('button', { name: `Download for offline: ${cmi5.course_title}` }).click()
    await page.getByRole('button', { name: `Play offline: ${cmi5.course_title}` }).waitFor()
    // The link drops three times during the SCORM download (its first file, one midway, the player's script): the files
    // that arrived stay, and each Continue download fetches only the files still missing.
    const contentPort = String(Number(new URL(service.baseUrl).port) + 1)
    const requested = new Map<string, number>()
    let cuts = 0
    await context.route(
      (url) => url.port === contentPort && (url.pathname.startsWith('/content/') || url.pathname.includes('/player-assets/')),
      (route) => {
        const url = route.request().url()
        const seen = requested.get(url) ?? 0
        requested.set(url, seen + 1)
        const cut = seen === 0 && (requested.size === 1 || requested.size === 20 || url.includes('/player-assets/scorm-again.'))
        if (!cut) return route.fallback()
        cuts++
        return route.abort('internetdisconnected')
      },
    )
    await page.getByRole('button', { name: `Download for offline: ${scorm.course_title}` }).click()
    // Each cut comes after the files before it have arrived: on a loaded machine that takes longer than expect.poll's
    // default second, so the wait is Playwright's usual 30 s (Continue download is enabled once the cut download ends).
    for (let cut = 1; cut <= 3; cut++) {
      await expect.poll(() => cuts, { timeout: 30_000 }).toBe(cut)
      await page.getByRole('button', { name: 'Continue download' }).click()
    }
    await page.getByRole('button', { name: `Play offline: ${scorm.course_title}` }).waitFor()
    await context.unrouteAll()
    expect(cuts).toBe(3)
    // Every file once, the three cut ones twice (a file is kept whole or not at all).
    expect([...requested.values()].sort()).toEqual([...Array(requested.size - 3).fill(1), 2, 2, 2])
    expect(requested.size).toBeGreaterThan(40) // the package's files and the player's
    const downloads = page.getByTestId('offline-download')
    const onDevice = expect.stringMatching(/^On this device · [\d.]+ (KB|MB)\b/)
    expect(await downloads.allInnerTexts()).toEqual([onDevice, onDevice])
    await screenshot(page, 'offline-downloaded')

    // My documents read once online: its copy is what the screen shows with no link.
    await page.goto(`${service.baseUrl}/console/me/documents`)
    await page.getByRole('button', { name: 'Add a document' }).waitFor()
    await page.goto(`${service.baseUrl}/console/me/training`)
    await page.getByRole('button', { name: `Play offline: ${cmi5.course_title}` }).waitFor()

    await shellKept(page)
    await context.setOffline(true)
    await page.reload()
    await page.getByText(/^Offline — as of/).waitFor()

    // cmi5, from the device: the AU reads its bookmark once started; navigate only after that, as the online test does.
    const bookmarkRead = page.waitForResponse((r) => r.request().method() === 'GET' && /stateId=suspendData/.test(r.url()))
    await page.getByRole('button', { name: `Play offline: ${cmi5.course_title}` }).click()
    await bookmarkRead
    await page.locator('.navmenuitem', { hasText: 'Quiz' }).first().click()
    await page.getByRole('button', { name: /Select correct answers/ }).click()
    await page.getByRole('button', { name: 'Submit Answers' }).click()
    await page.getByText('You achieved a passing score.').waitFor()
    await page.getByRole('button', { name: 'Exit the Course' }).click()
    await page.waitForURL(`${service.baseUrl}/console/**`)

    // SCORM 1.2, from the device: the player and its final commit (a beacon) answered by the content origin's worker.
    await page.getByRole('button', { name: `Play offline: ${scorm.course_title}` }).click()
    await playGolf(page)
    // A passport photographed with no link: kept on the device with its scan. The screen shows the copy read online.
    await page.goto(`${service.baseUrl}/console/me/documents`)
    await page.getByRole('region', { name: 'Identity documents' }).getByText('None yet.').waitFor()
    await addPassport(page, 'P7654321', { name: 'passport.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await passportPdf()) })

    await page.goto(`${service.baseUrl}/console/me/training`)
    await page.getByText(/results? waiting for a connection/).waitFor()
    await page.reload()
    await page.getByRole('heading', { name: 'My training' }).waitFor()
    await screenshot(page, 'offline-results-waiting')
    // Nothing reached the service while offline: only the launches' own records.
    expect(await verbs(cmi5.id)).toEqual(['launched'])
    expect(await verbs(scorm.id)).toEqual([])
    for (const id of [cmi5.id, scorm.id]) expect(await registration(id)).toMatchObject({ status: 'in_progress', attempt_count: 0 })
    const passports = () => ok(admin.GET('/api/v1/crew/users/{user_id}/identity-documents', { params: { path: { user_id: person.id } } }))
    expect(await passports()).toEqual([])
    const before = await readiness(assignment.id)
    expect(before).toEqual({ ready: false, blockers: ['document_missing'], warnings: ['course_not_passed', 'course_not_passed'] })

    await context.setOffline(false)
    await expect.poll(async () => (await registration(cmi5.id)).status, { timeout: 60_000 }).toBe('passed')
    await expect.poll(async () => (await registration(scorm.id)).status, { timeout: 60_000 }).toBe('passed')
    await page.getByText(/results? waiting for a connection/).waitFor({ state: 'detached' })
    expect(await passports()).toEqual([
      expect.objectContaining({ documentType: 'passport', documentNumber: 'P7654321', uploadId: expect.any(String) }),
    ])
    // The office sees the crew member ready (read live): the passport is there (unverified until reviewed), both courses passed.
    expect(await readiness(assignment.id)).toEqual({ ready: true, blockers: [], warnings: ['document_unverified'] })
    // The console syncs again at start: nothing changes.
    await page.reload()
    await page.getByRole('heading', { name: 'My training' }).waitFor()
    for (const id of [cmi5.id, scorm.id]) expect(await registration(id)).toMatchObject({ status: 'passed', attempt_count: 1 })
    const cmi5Verbs = await verbs(cmi5.id)
    expect(cmi5Verbs.slice(0, 2)).toEqual(['launched', 'initialized'])
    for (const verb of ['passed', 'terminated', 'satisfied']) expect(count(cmi5Verbs, verb)).toBe(1)
    const scormVerbs = await verbs(scorm.id)
    for (const verb of ['initialized', 'passed', 'terminated']) expect(count(scormVerbs, verb)).toBe(1)
    expect(await passports()).toHaveLength(1)

    // A shipmate signed in on the same device sees none of it: their own courses, nothing downloaded, nothing waiting.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await signInAs(page, service.baseUrl, shipmate.email)
    await page.goto(`${service.baseUrl}/console/me/training`)
    await page.getByRole('button', { name: `Download for offline: ${cmi5.course_title}` }).waitFor()
    expect(await page.getByTestId('offline-download').count()).toBe(0)
    expect(await page.getByText(/waiting for a connection/).count()).toBe(0)
    await context.close()
  })
})
