import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { cmi5Xml, zipOf } from '../test/fixtures/packages.js'
import { launchBrowser, screenshot, seriousViolations, signInAs } from './browser.js'
import { assign, createCrew, createPerson, createShip, ok, PASSWORD, passportPdf, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// The crew's own screens on a phone: a passport sent from the phone, rejected and verified in the office's
// review queue, corrected in between; a cmi5 course started from My training, passed, and the next contract
// turning ready. And the training admin: a broken package's errors, a course's structure and sessions.

const ADMIN = { email: 'admin@crew-console.test', password: PASSWORD, domain: 'crew-console.test' }
const PHONE = { width: 390, height: 844 }
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
async function importFixture(name: string): Promise<string> {
  const file = await readFile(join(FIXTURES, `${name}.zip`))
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
  expect(job.status).toBe('complete')
  return job.courseId!
}

async function phonePage(email: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: PHONE })).newPage()
  await signInAs(page, service.baseUrl, email)
  return page
}

/** Opens a screen through the navigation drawer, as on a phone. */
async function openFromDrawer(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: 'Navigation' }).click()
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click()
  await page.getByRole('heading', { level: 1, name: label }).waitFor()
}

/** The visible controls smaller than 44 × 44 px, by their text. */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('a, button, input:not([type=file]), [role=combobox], [role=tab]')]
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0 && (box.width < 44 || box.height < 44))
      .map(
        ({ el, box }) =>
          `${el.tagName} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 40)}" ${Math.round(box.width)}×${Math.round(box.height)}`,
      ),
  )
}

/** No sideways scrolling, nothing serious for axe-core, and on a phone touch targets of 44 px at least. */
async function fitsAndPasses(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth])
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
  expect(await seriousViolations(page)).toEqual([])
  if (innerWidth <= PHONE.width) expect(await smallTargets(page)).toEqual([])
}

describe('the crew console on a phone', () => {
  it('sends a passport, sees it rejected with the reason, corrects it and it is verified', async () => {
    const crew = await createCrew(admin, 'Pia', 'Phone')
    const employee = await createPerson(admin, 'Otto', 'Office', 'office_employee')
    const office = await signIn(service.baseUrl, employee.email)
    const page = await phonePage(crew.email)
    await openFromDrawer(page, 'My documents')
    await fitsAndPasses(page)

    await page.getByRole('button', { name: 'Add a document' }).click()
    const form = page.getByRole('form', { name: 'New identity document' })
    await form.getByLabel('Type').click()
    await page.getByRole('option', { name: 'Passport' }).click()
    await form.getByLabel('Number').fill('P7654321')
    await form.getByLabel('Issuing country').fill('NO')
    await form.getByLabel('Expires').fill('2032-03-01')
    // A file of a type the service refuses is explained before anything is sent.
    await page
      .locator('input[type=file]:not([capture])')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') })
    await page.getByText('This is a text/plain file. Send a PDF, or a JPEG or PNG photo.').waitFor()
    expect(await page.locator('input[type=file][capture=environment]').count()).toBe(1)
    await page
      .locator('input[type=file]:not([capture])')
      .setInputFiles({ name: 'passport.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await passportPdf()) })
    await page.getByText('Uploaded.').waitFor()
    await fitsAndPasses(page)
    await screenshot(page, 'crew-document-upload-phone')
    await form.getByRole('button', { name: 'Send identity document' }).click()
    const card = page.getByTestId('my-document')
    await expect.poll(() => card.getAttribute('data-review')).toBe('pending')

    // The office employee decides in the review queue at a desk.
    const [document] = await ok(office.GET('/api/v1/crew/users/{user_id}/identity-documents', { params: { path: { user_id: crew.id } } }))
    const desk = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage()
    await signInAs(desk, service.baseUrl, employee.email)
    await desk.goto(`${service.baseUrl}/console/review`)
    await desk.locator(`[data-target-id="${document!.id}"]`).click()
    await desk.getByLabel('Reason for rejection').fill('The number does not match the scan')
    await desk.getByRole('button', { name: /^Reject/ }).click()
    await desk.locator(`[data-target-id="${document!.id}"]`).waitFor({ state: 'detached' })
    await page.reload()
    await page.getByText('The number does not match the scan').waitFor()
    await fitsAndPasses(page)
    await screenshot(page, 'crew-document-rejected-phone')
    await page.getByRole('button', { name: 'Correct and resubmit' }).click()
    const correction = page.getByRole('form', { name: 'Correct the identity document' })
    await correction.getByLabel('Number').fill('P1234567')
    await correction.getByRole('button', { name: 'Resubmit' }).click()
    await expect.poll(() => card.getAttribute('data-review')).toBe('pending')

    await desk.reload()
    await desk.locator(`[data-target-id="${document!.id}"]`).click()
    await desk.getByRole('button', { name: /^Verify/ }).click()
    await desk.locator(`[data-target-id="${document!.id}"]`).waitFor({ state: 'detached' })
    await desk.context().close()
    await page.reload()
    await expect.poll(() => card.getAttribute('data-review')).toBe('verified')
    // A verified one warns before a change that would send it back to review.
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByText('sends it back to the office for review').waitFor()
    await page.context().close()
  })

  it('on a slow ship link never saves a document without its scan: Send waits beside its progress, leaving asks first', async () => {
    const crew = await createCrew(admin, 'Sam', 'Slowlink')
    const page = await phonePage(crew.email)
    // The ship's link, as the issue measured it: 256 kbit/s down, 128 kbit/s up, 700 ms round trip.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 700,
      downloadThroughput: 32_000,
      uploadThroughput: 16_000,
    })
    // The scan's POST is held until the checks below are done, so they never race the upload's end.
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route(/\/api\/v1\/shared\/uploads\/target/, async (route) => {
      await held
      await route.continue()
    })
    await openFromDrawer(page, 'My documents')
    await page.getByRole('button', { name: 'Add a document' }).click()
    const form = page.getByRole('form', { name: 'New identity document' })
    await form.getByLabel('Type').click()
    await page.getByRole('option', { name: 'Passport' }).click()
    await form.getByLabel('Number').fill('P5550001')
    await form.getByLabel('Expires').fill('2031-05-01')
    // A 48 kB comment after the PDF's end: three seconds and more at 128 kbit/s.
    const scan = Buffer.concat([Buffer.from(await passportPdf()), Buffer.from(`\n%${'x'.repeat(48_000)}\n`)])
    await page.locator('input[type=file]:not([capture])').setInputFiles({ name: 'passport.pdf', mimeType: 'application/pdf', buffer: scan })
    const send = form.getByRole('button', { name: 'Send identity document' })
    const waiting = form.getByRole('status').filter({ hasText: 'Uploading the scan' })
    await waiting.waitFor()
    expect(await send.isDisabled()).toBe(true)
    // The progress sits beside the button, on screen with it on a phone.
    const [button, progress] = [await send.boundingBox(), await waiting.boundingBox()]
    expect(Math.abs(button!.y + button!.height / 2 - (progress!.y + progress!.height / 2))).toBeLessThan(button!.height)
    expect(progress!.x + progress!.width).toBeLessThanOrEqual(PHONE.width)
    await screenshot(page, 'crew-document-uploading-phone')
    // Enter in a field sends nothing either.
    await form.getByLabel('Number').press('Enter')
    // Closing the form asks first; staying keeps it and its upload.
    const questions: string[] = []
    page.once('dialog', (dialog) => {
      questions.push(dialog.message())
      void dialog.dismiss()
    })
    await page.getByRole('button', { name: 'Close' }).click()
    expect(questions).toEqual(['The scan is still uploading. Leave anyway and lose it?'])
    await waiting.waitFor()
    expect(await ok(admin.GET('/api/v1/crew/users/{user_id}/identity-documents', { params: { path: { user_id: crew.id } } }))).toEqual([])

    release()
    await page.getByText('Uploaded.').waitFor({ timeout: 60_000 })
    await send.click()
    await expect.poll(() => page.getByTestId('my-document').count(), { timeout: 30_000 }).toBe(1)
    const saved = await ok(admin.GET('/api/v1/crew/users/{user_id}/identity-documents', { params: { path: { user_id: crew.id } } }))
    expect(saved).toHaveLength(1)
    expect(saved[0]!.uploadId).not.toBeNull()
    await page.context().close()
  })

  it('takes a cmi5 course from My training, passes it, comes back to it passed and the next contract ready', async () => {
    const courseId = await importFixture('masteryscore_responsive')
    const crew = await createCrew(admin, 'Cai', 'Course')
    const ship = await createShip(admin, 'MV Course Taker')
    // Due before today: the course not passed is a blocker (course_overdue), not only a warning.
    const assignment = await ok(
      admin.POST('/api/v1/assignments/', {
        // It ends before the later contract starts: the two do not overlap (no overlapping_assignment warning).
        body: { userId: crew.id, shipId: ship.id, role: 'Cadet', startDate: '2026-01-01', dueDate: '2026-02-01', endDate: '2026-12-31' },
      }),
    )
    await ok(admin.POST('/api/v1/learn/assignments/bulk/courses', { body: { assignmentIds: [assignment.id], courseIds: [courseId] } }))
    // A course without a package, on a later contract, says it cannot be opened here.
    const later = await assign(admin, crew.id, (await createShip(admin, 'MV Later')).id, 'Cadet', { startDate: '2027-01-01' })
    const me = await ok(admin.GET('/api/v1/users/me'))
    const pointer = await ok(
      admin.POST('/api/v1/courses/', {
        body: { organization_id: me.organization.id, s3_path: 'courses/x', launch_file: 'index.html', title: 'Bridge watch' },
      }),
    )
    await ok(admin.POST('/api/v1/learn/assignments/bulk/courses', { body: { assignmentIds: [later.id], courseIds: [pointer.id] } }))

    const page = await phonePage(crew.email)
    await openFromDrawer(page, 'My next contract')
    const contract = page.getByTestId('contract').filter({ hasText: 'MV Course Taker' })
    await contract.getByTestId('verdict').getByText('Not ready').waitFor()
    await fitsAndPasses(page)
    await screenshot(page, 'crew-next-contract-phone')
    const blocker = contract.locator('[data-testid=blocker][data-code=course_overdue]')
    await blocker.getByRole('link', { name: 'Open the course' }).click()
    await page.getByRole('heading', { level: 1, name: 'My training' }).waitFor()
    await page.getByText('This course is taken away from the console (in class or on board): the office records your result here.').waitFor()
    await fitsAndPasses(page)
    await screenshot(page, 'crew-training-phone')

    // The AU's first statement is `initialized`: played before it, the course would later offer to resume.
    const initialized = page.waitForResponse((r) => /\/statements\?/.test(r.url()) && r.request().method() === 'PUT', { timeout: 60_000 })
    await page.getByRole('button', { name: /^Start / }).click()
    await page.waitForURL((url) => url.origin !== new URL(service.baseUrl).origin)
    await initialized
    // ADL's fixture course hides its menu behind a toggle under a video overlay at phone width: it is played
    // at a desk width (the console around it stays the phone's), as in cmi5-play.test.ts.
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.locator('.navmenuitem', { hasText: 'Quiz' }).first().click()
    await page.getByRole('button', { name: /Select correct answers/ }).click()
    await page.getByRole('button', { name: 'Submit Answers' }).click()
    await page.getByText('You achieved a passing score.').waitFor()
    await page.getByRole('button', { name: 'Exit the Course' }).click()
    // cmi5's returnURL brings the learner back to My training, which reads the result.
    await page.waitForURL(`${service.baseUrl}/console/me/training**`)
    await page.setViewportSize(PHONE)
    await page.locator('[data-testid=registration][data-status=passed]').waitFor()
    await fitsAndPasses(page)
    await screenshot(page, 'crew-training-passed-phone')

    await openFromDrawer(page, 'My next contract')
    await contract.getByTestId('verdict').getByText('Ready', { exact: true }).waitFor()
    await contract.getByText('You have everything this contract needs.').waitFor()
    await screenshot(page, 'crew-next-contract-ready-phone')
    await page.context().close()
  })
})

describe('training admin', () => {
  it('imports an invalid package and reads every rule it breaks; a good one shows its structure and sessions', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage()
    await signInAs(page, service.baseUrl, ADMIN.email)
    await page.goto(`${service.baseUrl}/console/learning`)
    await page.getByRole('tab', { name: 'Import' }).click()
    const broken = await zipOf({
      'cmi5.xml': cmi5Xml([{ url: 'index.html' }, { url: 'missing.html' }, { id: 'https://example.com/au/dup', url: 'index.html' }]),
      'index.html': '<p>lesson</p>',
    })
    await page.locator('input[type=file]').setInputFiles({ name: 'broken.zip', mimeType: 'application/zip', buffer: broken })
    const job = page.getByTestId('import-job')
    await expect.poll(() => job.getAttribute('data-status'), { timeout: 60_000 }).toBe('failed')
    await page.getByText('"missing.html" names no file of the package').waitFor()
    await fitsAndPasses(page)
    await screenshot(page, 'admin-import-errors')

    await page.locator('input[type=file]').setInputFiles(join(FIXTURES, 'masteryscore_responsive.zip'))
    await expect.poll(() => job.getAttribute('data-status'), { timeout: 60_000 }).toBe('complete')
    const imported = await ok(admin.GET('/api/v1/courses/', { params: { query: { limit: 100 } } }))
    // The newest of the fixture's courses (the crew test imported it too).
    const course = imported.items
      .filter((c) => c.title.includes('Mastery Score'))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]!
    const crew = await createCrew(admin, 'Sam', 'Sessions')
    const assignment = await assign(admin, crew.id, (await createShip(admin, 'MV Sessions')).id, 'Cadet')
    await ok(admin.POST('/api/v1/learn/assignments/bulk/courses', { body: { assignmentIds: [assignment.id], courseIds: [course.id] } }))
    const [registration] = (await ok(admin.GET('/api/v1/learn/registrations', { params: { query: { assignment_id: assignment.id } } })))
      .items
    await ok(
      admin.POST('/api/v1/learn/registrations/{registration_id}/launch', {
        params: { path: { registration_id: registration!.id } },
        body: {},
      }),
    )

    await page.getByRole('tab', { name: 'Course packages' }).click()
    await page.getByRole('combobox', { name: 'Course' }).click()
    await page.locator(`[role=option][value="${course.id}"]`).click()
    await page.getByRole('table', { name: 'Assignable units' }).waitFor()
    await page.getByRole('button', { name: 'Sessions' }).click()
    await page.getByRole('table', { name: 'Sessions' }).getByText('Open').waitFor()
    await page.getByRole('button', { name: 'Abandon' }).click()
    await page.getByRole('group', { name: 'End this session as abandoned?' }).getByRole('button').first().click()
    await page.getByRole('table', { name: 'Sessions' }).getByText('Abandoned').waitFor()
    await page.getByRole('combobox', { name: 'Reason' }).click()
    await page.getByRole('option', { name: 'Administrative' }).click()
    await page.getByRole('button', { name: 'Waive', exact: true }).click()
    await page.getByText('Waived.').waitFor()
    await fitsAndPasses(page)
    await screenshot(page, 'admin-course-packages')
    await page.context().close()
  })
})
