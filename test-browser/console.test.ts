import { text } from 'node:stream/consumers'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { launchBrowser, screenshot, seriousViolations, signInAs, type Violation } from './browser.js'
import {
  assign,
  courseWithAttempts,
  createCrew,
  createMedical,
  createPassport,
  createShip,
  ok,
  PASSWORD,
  requirePassport,
  signIn,
  uploadPassportScan,
} from './seed.js'
import { type RunningService, startService } from './service.js'

// The console in Debian's chromium against the service on PostgreSQL, with its data made through the API.

const ADMIN = { email: 'admin@browser.test', password: PASSWORD, domain: 'browser.test' }

let service: RunningService
let browser: Browser
let admin: SeaworthyClient
let page: Page
const seeded = {} as {
  shipId: string
  rob: { id: string; email: string }
  rita: { id: string }
  passportId: string
  medicalId: string
  ritaAssignmentId: string
  benAssignment: { id: string; startDate: string | null }
  beaAssignmentId: string
}

beforeAll(async () => {
  service = await startService(ADMIN)
  admin = await signIn(service.baseUrl, ADMIN.email)
  const ship = await createShip(admin, 'MV Browser Star')
  await requirePassport(admin, 'Master')
  const [rob, rita, ben, bea] = await Promise.all([
    createCrew(admin, 'Rob', 'Review'),
    createCrew(admin, 'Rita', 'Ready'),
    createCrew(admin, 'Ben', 'Bulk'),
    createCrew(admin, 'Bea', 'Bulk'),
  ])
  const passport = await createPassport(admin, rob.id, await uploadPassportScan(admin))
  const medical = await createMedical(admin, rob.id)
  const ritaAssignment = await assign(admin, rita.id, ship.id, 'Master', { startDate: '2026-01-01' })
  const benAssignment = await assign(admin, ben.id, ship.id, 'Deckhand', { startDate: '2026-01-01', endDate: '2027-03-01' })
  const beaAssignment = await assign(admin, bea.id, ship.id, 'Deckhand', { startDate: '2026-01-01' })
  await courseWithAttempts(admin, beaAssignment.id, 'Fire safety basics')
  Object.assign(seeded, {
    shipId: ship.id,
    rob: { id: rob.id, email: rob.email },
    rita: { id: rita.id },
    passportId: passport.id,
    medicalId: medical.id,
    ritaAssignmentId: ritaAssignment.id,
    benAssignment,
    beaAssignmentId: beaAssignment.id,
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

afterEach(async () => {
  await page?.context().close()
})

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
  page = await context.newPage()
  return page
}

const consoleUrl = (path: string) => `${service.baseUrl}/console${path}`

describe('the office console', () => {
  it('signs in with a password and lands on the review queue', async () => {
    await newPage()
    await page.goto(consoleUrl('/'))
    await page.getByLabel('E-mail').waitFor()
    // Reported, not asserted: a wall-clock bound would fail on a busy machine, not on a slow console.
    const [shown, ready] = await page.evaluate(() => [
      performance.now(),
      (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domContentLoadedEventEnd,
    ])
    console.log(
      `console load: DOMContentLoaded ${Math.round(ready)} ms, sign-in form shown by ${Math.round(shown)} ms after navigation start`,
    )
    await screenshot(page, 'sign-in')
    expect(await seriousViolations(page)).toEqual([])

    await signInAs(page, service.baseUrl, ADMIN.email)
    await page.getByRole('heading', { name: 'Review queue' }).waitFor()
    expect(new URL(page.url()).pathname).toBe('/console/review')
  })

  it('reviews end to end: a passport previewed and verified, the next item at once, a certificate rejected with a reason, the audit event shown', async () => {
    await newPage()
    await signInAs(page, service.baseUrl, ADMIN.email)
    const item = page.locator(`[data-target-id="${seeded.passportId}"]`)
    // By keyboard: the item takes focus and Enter opens it.
    await item.focus()
    await page.keyboard.press('Enter')
    // The PDF's first page drawn from the signed download link, beside the document's fields.
    await page.locator('canvas[data-drawn="true"]').waitFor()
    await page.getByRole('cell', { name: 'P1234567' }).waitFor()
    await page.getByRole('link', { name: /Rob Review/ }).waitFor()
    await screenshot(page, 'review-queue')
    expect(await seriousViolations(page)).toEqual([])

    await page.keyboard.press('v')
    await item.waitFor({ state: 'detached' })
    // The next item shows at once: the medical certificate queued after the passport.
    await page.getByRole('heading', { name: 'Medical' }).waitFor()
    await page.getByText('No file was uploaded with this record.').waitFor()
    await page.keyboard.press('r')
    await page.keyboard.type('Stamp unreadable')
    await page.keyboard.press('Control+Enter')
    await page.locator(`[data-target-id="${seeded.medicalId}"]`).waitFor({ state: 'detached' })

    const passport = await ok(
      admin.GET('/api/v1/crew/identity-documents/{document_id}', { params: { path: { document_id: seeded.passportId } } }),
    )
    const medical = await ok(
      admin.GET('/api/v1/crew/certificates/{certificate_id}', { params: { path: { certificate_id: seeded.medicalId } } }),
    )
    expect([passport.verification?.status, medical.verification?.status, medical.verification?.rejectionReason]).toEqual([
      'verified',
      'rejected',
      'Stamp unreadable',
    ])

    // The decision in the audit trail, as the Admin screen shows it.
    await page.goto(consoleUrl('/admin'))
    await page.getByRole('tab', { name: 'Audit events' }).click()
    await page.getByLabel('Record id').fill(seeded.passportId)
    const verified = page.getByRole('row', { name: /verification\.verified/ })
    await verified.waitFor()
    expect(await verified.textContent()).toContain(`identity_document ${seeded.passportId}`)
    await screenshot(page, 'admin-audit')
  })

  it('runs a bulk update and shows which assignment failed and why', async () => {
    await newPage()
    await signInAs(page, service.baseUrl, ADMIN.email)
    await page.goto(consoleUrl('/assignments'))
    await page.getByRole('checkbox', { name: 'Select Ben Bulk on MV Browser Star' }).check()
    await page.getByRole('checkbox', { name: 'Select Bea Bulk on MV Browser Star' }).check()
    const update = page.getByRole('tabpanel', { name: 'Update' })
    await update.getByLabel('Start').fill('2027-06-01')
    await update.getByRole('button', { name: 'Update 2 selected' }).click()

    const results = page.getByTestId('bulk-results')
    await results.getByText('Update: 1 changed, 1 failed').waitFor()
    const benRow = results.getByRole('row', { name: /Ben Bulk/ })
    expect(await benRow.textContent()).toContain('startDate after endDate')
    expect(await results.getByRole('row', { name: /Bea Bulk/ }).textContent()).toContain('Updated')
    await screenshot(page, 'assignments-bulk')
    expect(await seriousViolations(page)).toEqual([])

    const after = await ok(admin.GET('/api/v1/assignments/', { params: { query: { ship_id: seeded.shipId, limit: 10 } } }))
    const startOf = (id: string) => after.items.find((a) => a.id === id)?.startDate
    expect([startOf(seeded.benAssignment.id), startOf(seeded.beaAssignmentId)]).toEqual([seeded.benAssignment.startDate, '2027-06-01'])
  })

  it('shows the readiness blocker the API reports, in words', async () => {
    const reported = await ok(admin.GET('/api/v1/learn/readiness', { params: { query: { ship_id: seeded.shipId, ready: false } } }))
    const rita = reported.items.find((i) => i.assignmentId === seeded.ritaAssignmentId)
    expect(rita?.codes).toEqual(['document_missing'])
    const verdict = await ok(
      admin.GET('/api/v1/learn/assignments/{assignment_id}/readiness', { params: { path: { assignment_id: seeded.ritaAssignmentId } } }),
    )

    await newPage()
    await signInAs(page, service.baseUrl, ADMIN.email)
    await page.goto(consoleUrl('/readiness'))
    const row = page.getByRole('row', { name: /Rita Ready/ })
    await row.getByText('A required document is missing').waitFor()
    await row.getByRole('button', { name: 'Details' }).click()
    await row.getByText(`Blocker: ${verdict.blockers[0]?.message}`).waitFor()
    await page.getByRole('combobox', { name: 'Ship' }).click()
    await page.getByRole('option', { name: 'MV Browser Star' }).click()
    await page.getByRole('region', { name: 'Ship summary' }).getByText('1 not ready').waitFor()
    await screenshot(page, 'readiness')
    expect(await seriousViolations(page)).toEqual([])
  })

  it('keeps a crew member to their own screens; the API refuses the admin calls too', async () => {
    await newPage()
    await signInAs(page, service.baseUrl, seeded.rob.email)
    await page.getByRole('heading', { name: 'Rob Review' }).waitFor()
    const nav = page.getByRole('navigation', { name: 'Main' })
    expect(await nav.getByRole('link').allTextContents()).toEqual(['My profile', 'My assignments'])
    await screenshot(page, 'crew-my-profile')
    expect(await seriousViolations(page)).toEqual([])

    await page.goto(consoleUrl('/admin'))
    await page.getByRole('alert').getByText('Your role does not give access to this screen.').waitFor()
    expect(await page.getByRole('heading', { name: 'Admin' }).count()).toBe(0)

    const crew = await signIn(service.baseUrl, seeded.rob.email)
    const { response } = await crew.PUT('/api/v1/crew/requirements', { body: { items: [] } })
    expect(response.status).toBe(403)
  })

  it('shows an office employee the review and crew screens, not assignments or admin', async () => {
    const email = 'oona.office@browser.test'
    await ok(
      admin.POST('/api/v1/shared/users', {
        body: { email, firstName: 'Oona', lastName: 'Office', role: 'office_employee', password: PASSWORD },
      }),
    )
    await newPage()
    await signInAs(page, service.baseUrl, email)
    await page.getByRole('heading', { name: 'Review queue' }).waitFor()
    const nav = page.getByRole('navigation', { name: 'Main' })
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Review queue', 'Crew', 'Fleet readiness', 'Expiring documents'])
    await page.goto(consoleUrl('/assignments'))
    await page.getByRole('alert').getByText('Your role does not give access to this screen.').waitFor()
  })

  it('sends an expired session back to sign-in with a message', async () => {
    await newPage()
    await signInAs(page, service.baseUrl, ADMIN.email)
    // A token the service no longer accepts, as after a restart with another secret or a revocation.
    await page.evaluate(() => {
      const stored = JSON.parse(sessionStorage.getItem('seaworthy.session') ?? '{}')
      sessionStorage.setItem('seaworthy.session', JSON.stringify({ ...stored, token: 'expired' }))
    })
    await page.goto(consoleUrl('/crew'))
    await page.getByText('Your session has expired. Please sign in again.').waitFor()
    expect(new URL(page.url()).pathname).toBe('/console/sign-in')
  })

  it('downloads the fleet expiry list as the CSV the API serves', async () => {
    const { data: expected } = await admin.GET('/api/v1/crew/expiring', {
      params: { query: { within_days: 2000, format: 'csv' } },
      parseAs: 'text',
    })
    expect(expected).toContain('Rob Review')

    await newPage()
    await signInAs(page, service.baseUrl, ADMIN.email)
    await page.goto(consoleUrl('/expiring'))
    await page.getByLabel('Within days').fill('2000')
    await page.getByRole('cell', { name: 'Rob Review' }).first().waitFor()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()])
    const stream = await download.createReadStream()
    expect(await text(stream)).toBe(expected)
    await screenshot(page, 'expiring')
  })

  it('has no serious or critical accessibility violations on any screen', async () => {
    await newPage()
    await signInAs(page, service.baseUrl, ADMIN.email)
    const screens: [name: string, path: string, ready: string, tab?: string][] = [
      ['crew-roster', '/crew', 'Rita Ready'],
      ['crew-profile', `/crew/${seeded.rob.id}`, 'Verification history'],
      ['expiring', '/expiring', 'Expiring documents'],
      ['learning-courses', '/learning', 'Search courses'],
      ['learning-curriculums', '/learning', 'Curriculums', 'Curriculums'],
      ['learning-difficulty', '/learning', '100 %', 'Course difficulty'],
      ['admin-organization', '/admin', 'Save settings'],
      ['admin-requirements', '/admin', 'Save requirements', 'Requirements'],
      ['admin-sso', '/admin', 'Single sign-on is off.', 'Single sign-on'],
      ['admin-audit', '/admin', 'verification.verified', 'Audit events'],
    ]
    const found: Record<string, Violation[]> = {}
    for (const [name, path, ready, tab] of screens) {
      await page.goto(consoleUrl(path))
      if (tab) await page.getByRole('tab', { name: tab }).click()
      await page.getByText(ready, { exact: true }).first().waitFor()
      await screenshot(page, name)
      const violations = await seriousViolations(page)
      if (violations.length) found[name] = violations
    }
    expect(found).toEqual({})
  })
})
