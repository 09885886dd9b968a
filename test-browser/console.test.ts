import { createHmac } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
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
    await page.getByLabel('Record', { exact: true }).fill('P1234567')
    const verified = page.getByRole('row', { name: /Review: verified/ })
    await verified.waitFor()
    expect(await verified.textContent()).toContain('Passport P1234567')
    expect(await verified.textContent()).toContain('Rob Review')
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
    expect(await nav.getByRole('link').allTextContents()).toEqual(['My profile', 'My assignments', 'My documents', 'My training', 'My next contract'])
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
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      'Review queue',
      'Crew',
      'Fleet readiness',
      'Expiring documents',
      'Sea service',
      'Ships',
    ])
    await page.goto(consoleUrl('/assignments'))
    await page.getByRole('alert').getByText('Your role does not give access to this screen.').waitFor()
  })

  it('sends an expired session back to sign-in with a message', async () => {
    await newPage()
    await signInAs(page, service.baseUrl, ADMIN.email)
    // Tokens the service no longer accepts, as after a restart with another secret or a revocation.
    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('seaworthy.session') ?? '{}')
      localStorage.setItem('seaworthy.session', JSON.stringify({ ...stored, token: 'expired', refreshToken: 'revoked' }))
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

  it('creates a webhook, shows its secret once, sends a test, sees it delivered in the log, retries it, refuses a test when inactive, rotates and deletes', async () => {
    // The receiving system: a plain http server on loopback that answers 204 and keeps what it got.
    const received: { headers: IncomingHttpHeaders; body: string }[] = []
    const receiver = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => (body += chunk))
      request.on('end', () => {
        received.push({ headers: request.headers, body })
        response.writeHead(204).end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
    const tests = () => received.filter((r) => JSON.parse(r.body).type === 'webhook.test')
    try {
      await newPage()
      await signInAs(page, service.baseUrl, ADMIN.email)
      await page.goto(consoleUrl('/admin'))
      await page.getByRole('tab', { name: 'Webhooks' }).click()
      const form = page.getByRole('form', { name: 'New webhook' })
      await form.getByRole('textbox', { name: 'URL' }).fill(url)
      await form.getByRole('combobox', { name: 'Events' }).click()
      await page.getByRole('option', { name: 'verification.* (all of them)' }).click()
      await page.keyboard.press('Escape')
      await form.getByRole('textbox', { name: 'Description' }).fill('Payroll sync')
      await form.getByRole('button', { name: 'Create webhook' }).click()

      // The secret, once, with the note and a copy button.
      const note = page.getByRole('status', { name: 'Signing secret, shown only once' })
      await note.waitFor()
      await note.getByRole('button', { name: 'Copy secret' }).waitFor()
      const secret = (await note.getByTestId('webhook-secret').textContent()) ?? ''
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32,}$/)
      await screenshot(page, 'admin-webhook-secret')
      expect(await seriousViolations(page)).toEqual([])
      await note.getByRole('button', { name: 'I have stored it' }).click()
      await note.waitFor({ state: 'detached' })
      expect(await page.getByText(secret).count()).toBe(0)
      const listed = await ok(admin.GET('/api/v1/shared/webhooks'))
      expect(listed.items.map((w) => [w.url, w.events, w.description, w.active])).toEqual([[url, ['verification.*'], 'Payroll sync', true]])
      await page
        .getByRole('row', { name: /Payroll sync/ })
        .getByText('Active')
        .waitFor()

      // A test event, delivered to the receiver and shown as succeeded in the delivery log.
      const detail = page.getByRole('region', { name: `Webhook ${url}` })
      await detail.getByRole('button', { name: 'Send test event' }).click()
      await detail.getByText(/^Test event sent/).waitFor()
      const delivery = detail.getByRole('row', { name: /webhook\.test/ })
      await delivery.getByText('Succeeded').waitFor()
      expect(await delivery.textContent()).toContain('204')
      // Who caused it, by name (the log names the actor, person and record of each delivery).
      const { user: me } = await ok(admin.GET('/api/v1/users/me'))
      expect(await delivery.textContent()).toContain(`${me.firstName} ${me.lastName}`)
      expect(tests()).toHaveLength(1)
      // Signed with the secret the screen showed (Standard Webhooks).
      const [got] = tests()
      const signed = `${got?.headers['webhook-id']}.${got?.headers['webhook-timestamp']}.${got?.body}`
      const signature = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
        .update(signed)
        .digest('base64')
      expect(String(got?.headers['webhook-signature']).split(' ')).toContain(`v1,${signature}`)
      await screenshot(page, 'admin-webhooks')
      expect(await seriousViolations(page)).toEqual([])

      // Retry sends the same delivery again.
      await delivery.getByRole('button', { name: /^Retry/ }).click()
      await expect.poll(() => tests().length, { timeout: 30_000 }).toBe(2)
      expect(tests()[1]?.headers['webhook-id']).toBe(got?.headers['webhook-id'])

      // Inactive: the service answers 409 to a test, and the screen says why.
      await detail.getByRole('switch', { name: 'Active (receives deliveries)' }).uncheck()
      await detail.getByRole('button', { name: 'Save webhook' }).click()
      await detail.getByText('Webhook saved.').waitFor()
      await detail.getByRole('button', { name: 'Send test event' }).click()
      await detail.getByRole('alert').getByText('The webhook is not active: turn it on and save before sending a test.').waitFor()
      expect(tests()).toHaveLength(2)

      // Rotation asks once more, then shows the new secret once; deletion asks too and takes it off the list.
      await detail.getByRole('button', { name: 'Rotate secret' }).click()
      await detail.getByRole('button', { name: 'Yes, rotate secret' }).click()
      const rotated = (await detail.getByTestId('webhook-secret').textContent()) ?? ''
      expect(rotated).toMatch(/^whsec_/)
      expect(rotated).not.toBe(secret)
      await detail.getByRole('button', { name: 'Delete' }).click()
      await detail.getByRole('button', { name: 'Yes, delete' }).click()
      await page.getByText('No webhooks.').waitFor()
      expect((await ok(admin.GET('/api/v1/shared/webhooks'))).items).toEqual([])
    } finally {
      receiver.closeAllConnections()
      await new Promise((resolve) => receiver.close(resolve))
    }
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
      ['admin-audit', '/admin', 'Passport P1234567', 'Audit events'],
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
