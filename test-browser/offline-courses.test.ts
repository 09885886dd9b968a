import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { launchBrowser, screenshot, signInAs } from './browser.js'
import { importCourse } from './scorm-courses.js'
import { assign, createCrew, createShip, ok, PASSWORD, passportPdf, requirePassport, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// Courses taken offline (DECISIONS §16), in Debian's chromium with the network really cut: a crew member
// downloads ADL's cmi5 mastery-score course and Rustici's Golf Explained (SCORM 1.2) from My training, goes
// offline, plays both to passed from the device (the content origin's service worker), photographs a passport,
// reloads the console with no link, and comes back online: the queue syncs with no action, and the service has
// each registration passed once, one attempt each, each record once, and the passport with its scan.
// Then a week's work (50 statements, 5 commits, a 2 MiB photo) queued offline syncs on an emulated ship's link
// (CDP network emulation: 64 kbit/s each way, 800 ms): it all arrives, the photo once, and the bytes are counted.

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

/** A passport added on My documents with no link: the form kept on the device with its scan. */
async function addPassport(page: Page, number: string, scan: { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByRole('button', { name: 'Add a document' }).click()
  const form = page.getByRole('form', { name: 'New identity document' })
  await form.getByLabel('Type').click()
  await page.getByRole('option', { name: 'Passport' }).click()
  await form.getByLabel('Number').fill(number)
  await form.getByLabel('Issuing country').fill('NO')
  await form.getByLabel('Expires').fill('2032-03-01')
  await page.locator('input[type=file]:not([capture])').setInputFiles(scan)
  await page.getByText(/the scan is kept on this device/).waitFor()
  await form.getByRole('button', { name: 'Send identity document' }).click()
  await form.waitFor({ state: 'detached' })
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
    for (let cut = 1; cut <= 3; cut++) {
      await expect.poll(() => cuts).toBe(cut)
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
    await expect.poll(() => downloads.allInnerTexts()).toEqual([onDevice, onDevice])
    await screenshot(page, 'offline-downloaded')

    // My documents read once online: its copy is what the screen shows with no link.
    await page.goto(`${service.baseUrl}/console/me/documents`)
    await page.getByRole('button', { name: 'Add a document' }).waitFor()
    await page.goto(`${service.baseUrl}/console/me/training`)
    await page.getByRole('button', { name: `Play offline: ${cmi5.course_title}` }).waitFor()

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
    // A passport photographed with no link: kept on the device with its scan.
    await page.goto(`${service.baseUrl}/console/me/documents`)
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
    // The office sees the crew member ready: the passport is there (unverified until reviewed), both courses passed.
    await expect.poll(() => readiness(assignment.id)).toEqual({ ready: true, blockers: [], warnings: ['document_unverified'] })
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

  it("syncs a week's work (50 statements, 5 commits, a 2 MiB photo) on an emulated ship link: 64 kbit/s each way, 800 ms", async () => {
    const cmi5Course = await importCourse(admin, await readFile(join(FIXTURES, 'cmi5/masteryscore_responsive.zip')))
    const scormCourse = await importCourse(admin, await readFile(join(FIXTURES, 'scorm/RuntimeBasicCalls_SCORM12.zip')))
    const person = await createCrew(admin, 'Wim', 'Week')
    const assignment = await assign(admin, person.id, (await createShip(admin, 'MV Ship Link')).id, 'Deckhand')
    const courseIds = [cmi5Course, scormCourse]
    await ok(admin.POST('/api/v1/learn/assignments/bulk/courses', { body: { assignmentIds: [assignment.id], courseIds } }))
    const crew = await signIn(service.baseUrl, person.email)
    const listed = await ok(crew.GET('/api/v1/learn/registrations', { params: { query: { expand: true } } }))
    const [cmi5, scorm] = courseIds.map((id) => listed.items.find((r) => r.course_id === id)!)
    const offline = (id: string) =>
      ok(crew.POST('/api/v1/learn/registrations/{registration_id}/offline', { params: { path: { registration_id: id } }, body: {} }))
    const week = Date.parse('2026-11-23T08:00:00Z')
    const queued = [...(await cmi5Week(await offline(cmi5.id), week)), ...scormWeek(await offline(scorm.id), week)]
    expect(queued.map((q) => q.kind).filter((kind) => kind === 'statement')).toHaveLength(50)

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await signInAs(page, service.baseUrl, person.email)
    await page.goto(`${service.baseUrl}/console/me/documents`)
    await page.getByRole('button', { name: 'Add a document' }).waitFor()
    const link = await context.newCDPSession(page)
    const conditions = (offline: boolean) =>
      link.send(
        'Network.emulateNetworkConditions',
        offline
          ? { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }
          : { offline, latency: 800, downloadThroughput: 8_000, uploadThroughput: 8_000 },
      )
    await conditions(true)
    // The week's records, as the courses played on the device left them in this person's queue.
    await page.evaluate(
      async ({ userId, items }) => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open('seaworthy-offline')
          open.onsuccess = () => resolve(open.result)
          open.onerror = () => reject(open.error)
        })
        const tx = db.transaction('queue', 'readwrite')
        for (const item of items) tx.objectStore('queue').add({ userId, ...item })
        await new Promise((resolve) => (tx.oncomplete = resolve))
      },
      { userId: person.id, items: queued },
    )
    await addPassport(page, 'P2468013', { name: 'passport.jpg', mimeType: 'image/jpeg', buffer: jpeg(2 * 1_048_576) })
    // Opened again with no link, the console counts the whole queue.
    await page.reload()
    await page.getByText('56 results waiting for a connection').waitFor()

    // The ship's link: everything the page sends from now on, counted as it goes (failures too, to show them).
    const started = Date.now()
    const sent: { request: Request; at: number; failed?: string }[] = []
    page.on('requestfinished', (request) => void sent.push({ request, at: Date.now() - started }))
    page.on('requestfailed', (request) => void sent.push({ request, at: Date.now() - started, failed: request.failure()?.errorText }))
    await conditions(false)
    const registration = async (id: string) =>
      (await ok(crew.GET('/api/v1/learn/registrations/{registration_id}', { params: { path: { registration_id: id } } }))).status
    const passports = () => ok(admin.GET('/api/v1/crew/users/{user_id}/identity-documents', { params: { path: { user_id: person.id } } }))
    const poll = { timeout: 480_000, interval: 1_000 }
    await expect.poll(async () => [await registration(cmi5.id), await registration(scorm.id)], poll).toEqual(['passed', 'passed'])
    const synced = Date.now() - started
    await expect.poll(async () => (await passports()).length, poll).toBe(1)
    await page.getByText(/results? waiting for a connection/).waitFor({ state: 'detached', timeout: 60_000 })
    const done = Date.now() - started
    const wire = await Promise.all(
      sent.map(async ({ request, at, failed }) => {
        const sizes = await request.sizes()
        // A Blob body (the gzip'd sync, the photo's form) has no post data to read here: its Content-Length says its size.
        const body = Number((await request.allHeaders())['content-length'] ?? 0)
        return {
          at,
          failed,
          path: `${request.method()} ${new URL(request.url()).pathname}`,
          up: sizes.requestHeadersSize + body,
          down: sizes.responseHeadersSize + sizes.responseBodySize,
        }
      }),
    )
    // Reported, not asserted: a wall-clock bound would fail on a busy machine, not on a slow sync.
    const requests = wire.map((w) => `${w.path.replace(/[0-9a-f-]{36}/g, '{id}')} ${w.up}/${w.down}`)
    console.log(`ship link: records on the service by ${synced} ms, all by ${done} ms; bytes up/down: ${requests.join(', ')}`)
    // The photo went once: passes do not overlap however long one takes on the link.
    expect(wire.filter((w) => w.path === 'POST /api/v1/shared/uploads/intent')).toHaveLength(1)
    expect(wire.filter((w) => w.failed)).toEqual([])
    // The records' share of the wire: the §16 budget is 60 KB for 200 statements; this week has 50 and 5 commits.
    const records = wire.filter((w) => w.path === 'POST /api/v1/learn/offline/sync')
    expect(records.reduce((bytes, w) => bytes + w.up + w.down, 0)).toBeLessThanOrEqual(15 * 1024)
    await context.close()
  }, 600_000)
})

/** A cmi5 AU's week in one offline session: initialized, 46 pages and answers, completed, passed, terminated. */
async function cmi5Week(launched: { url: string; sessionId: string }, week: number) {
  const params = new URL(launched.url).searchParams
  const token = ((await (await fetch(params.get('fetch') ?? '', { method: 'POST' })).json()) as { 'auth-token': string })['auth-token']
  const endpoint = (params.get('endpoint') ?? '').replace(/\/?$/, '/')
  const state = new URLSearchParams({
    stateId: 'LMS.LaunchData',
    activityId: params.get('activityId') ?? '',
    agent: params.get('actor') ?? '',
    registration: params.get('registration') ?? '',
  })
  const launchData = (await (
    await fetch(`${endpoint}activities/state?${state}`, {
      headers: { authorization: `Basic ${token}`, 'x-experience-api-version': '1.0.3' },
    })
  ).json()) as {
    masteryScore?: number
    contextTemplate: { contextActivities: Record<string, unknown>; extensions: Record<string, unknown> }
  }
  const activityId = params.get('activityId') ?? ''
  const cmi5Category = { id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }
  const moveOn = { id: 'https://w3id.org/xapi/cmi5/context/categories/moveon' }
  const statement = (i: number, verb: string, object: string, result?: object, categories: object[] = []) => ({
    id: crypto.randomUUID(),
    actor: JSON.parse(params.get('actor') ?? '{}'),
    verb: { id: `http://adlnet.gov/expapi/verbs/${verb}`, display: { 'en-US': verb } },
    object: { objectType: 'Activity', id: object },
    ...(result && { result }),
    context: {
      registration: params.get('registration'),
      contextActivities: { ...launchData.contextTemplate.contextActivities, ...(categories.length ? { category: categories } : {}) },
      extensions: {
        ...launchData.contextTemplate.extensions,
        ...(verb === 'passed' &&
          launchData.masteryScore !== undefined && {
            'https://w3id.org/xapi/cmi5/context/extensions/masteryscore': launchData.masteryScore,
          }),
      },
    },
    timestamp: new Date(week + i * 9_000_000).toISOString(),
  })
  const pages = Array.from({ length: 46 }, (_, i) =>
    i % 2 === 0
      ? statement(i + 1, 'experienced', `${activityId}/pages/${i}`)
      : statement(i + 1, 'answered', `${activityId}/questions/${i}`, { response: `choice-${i % 4}`, success: i % 3 !== 0 }),
  )
  const statements = [
    statement(0, 'initialized', activityId, undefined, [cmi5Category]),
    ...pages,
    statement(47, 'completed', activityId, { completion: true, duration: 'PT3H10M' }, [cmi5Category, moveOn]),
    statement(48, 'passed', activityId, { success: true, score: { scaled: 0.9 }, duration: 'PT3H10M' }, [cmi5Category, moveOn]),
    statement(49, 'terminated', activityId, { duration: 'PT3H12M' }, [cmi5Category]),
  ]
  return statements.map((record, i) => ({ sessionId: launched.sessionId, credential: token, kind: 'statement', record, at: week + i }))
}

/** A SCORM 1.2 SCO's week in one offline session: four commits on the way and the final one, passed. */
function scormWeek(launched: { url: string; sessionId: string }, week: number) {
  const secret = new URLSearchParams(new URL(launched.url).hash.slice(1)).get('secret')
  const credential = Buffer.from(`session.${launched.sessionId}:${secret}`).toString('base64')
  return [1, 2, 3, 4, 5].map((seq) => ({
    sessionId: launched.sessionId,
    credential,
    kind: 'commit',
    record: {
      seq,
      cmi: {
        core: {
          lesson_status: seq < 5 ? 'incomplete' : 'passed',
          lesson_location: `page-${seq * 3}`,
          score: { raw: String(seq < 5 ? 20 * seq : 100) },
          session_time: '00:25:00',
        },
        suspend_data: `visited=${Array.from({ length: seq * 3 }, (_, n) => n + 1).join(',')}`,
      },
      ...(seq === 5 && { terminate: true }),
    },
    at: week + 1_000 + seq,
  }))
}

/** A JPEG of `size` bytes (a real header, then comment segments of noise), as a phone's photo weighs on the wire. */
function jpeg(size: number): Buffer {
  const header = Buffer.from('ffd8ffe000104a46494600010100000100010000ffc0000b080c8010200101110000', 'hex')
  const parts = [header]
  let left = size - header.length - 2
  while (left > 0) {
    const body = Math.min(left - 4, 65_533)
    const segment = Buffer.alloc(4 + body)
    segment.writeUInt16BE(0xfffe, 0)
    segment.writeUInt16BE(body + 2, 2)
    randomBytes(body).copy(segment, 4)
    parts.push(segment)
    left -= segment.length
  }
  parts.push(Buffer.from('ffd9', 'hex'))
  return Buffer.concat(parts)
}
