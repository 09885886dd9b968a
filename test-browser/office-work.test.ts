import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { launchBrowser, screenshot, signInAs } from './browser.js'
import { assign, createPerson, createShip, ok, PASSWORD, passportPdf, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// Every day's office work in the console: records entered by office staff and verified by another, an
// assignment ended; the API then holds exactly what the screens did.

const ADMIN = { email: 'admin@work.test', password: PASSWORD, domain: 'work.test' }

let service: RunningService
let browser: Browser
let admin: SeaworthyClient
let page: Page
const people = {} as Record<'officeAdmin' | 'employee' | 'sam', { id: string; email: string }>
let assignmentId: string
let secondShipId: string

beforeAll(async () => {
  service = await startService(ADMIN)
  admin = await signIn(service.baseUrl, ADMIN.email)
  const ship = await createShip(admin, 'MV Work Horse')
  secondShipId = (await createShip(admin, 'MV Second Berth')).id
  const [officeAdmin, employee, sam] = await Promise.all([
    createPerson(admin, 'Otto', 'Office', 'office_admin'),
    createPerson(admin, 'Eva', 'Employee', 'office_employee'),
    createPerson(admin, 'Sam', 'Sailor', 'crew'),
  ])
  Object.assign(people, { officeAdmin, employee, sam })
  assignmentId = (await assign(admin, sam.id, ship.id, 'Able seaman', { startDate: '2026-01-01' })).id
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

afterEach(async () => {
  await page?.context().close()
})

async function signedIn(email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
  page = await context.newPage()
  await signInAs(page, service.baseUrl, email)
  return page
}

const today = () => new Date().toISOString().slice(0, 10)

describe('office work in the console', () => {
  it('an admin assigning a person already booked on those dates is warned at the form, and readiness warns of it', async () => {
    await signedIn(ADMIN.email)
    await page.goto(`${service.baseUrl}/console/crew/${people.sam.id}`)
    const form = page.getByRole('form', { name: 'New assignment' })
    await form.getByLabel('Ship').click()
    await page.getByRole('option', { name: 'MV Second Berth' }).click()
    await form.getByLabel('Role').fill('Cook')
    const warning = form.getByTestId('overlap-warning')
    await form.getByLabel('Start').fill('2025-12-01')
    await form.getByLabel('End', { exact: true }).fill('2026-02-01')
    await warning.waitFor()
    expect(await warning.textContent()).toContain('MV Work Horse as Able seaman, 2026-01-01 to no end date')
    // Ending the day before that booking starts takes the warning away; overlapping again brings it back.
    await form.getByLabel('End', { exact: true }).fill('2025-12-31')
    await warning.waitFor({ state: 'detached' })
    await form.getByLabel('End', { exact: true }).fill('2026-02-01')
    await warning.waitFor()
    await screenshot(page, 'assignment-overlap-warning')
    await form.getByRole('button', { name: 'Assign' }).click()
    await warning.waitFor({ state: 'detached' })
    const created = await ok(admin.GET('/api/v1/assignments/', { params: { query: { user_id: people.sam.id, ship_id: secondShipId } } }))
    expect(created.items.map((a) => [a.role, a.startDate, a.endDate])).toEqual([['Cook', '2025-12-01', '2026-02-01']])
    const verdict = await ok(
      admin.GET('/api/v1/learn/assignments/{assignment_id}/readiness', {
        params: { path: { assignment_id: created.items[0].id }, query: { as_of: '2025-12-15' } },
      }),
    )
    expect(verdict.warnings.map((w) => [w.code, w.targetId])).toEqual([['overlapping_assignment', assignmentId]])
  })

  it('an office admin enters a passport with its scan and corrects it; another employee verifies it', async () => {
    await signedIn(people.officeAdmin.email)
    await page.goto(`${service.baseUrl}/console/crew/${people.sam.id}`)
    await page.getByRole('button', { name: 'Add identity document' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel(/^Type/).click()
    await page.getByRole('option', { name: 'Passport' }).click()
    await dialog.getByLabel('Number').fill('P7654321')
    await dialog.getByLabel('Issuing country').fill('XX')
    await dialog.getByLabel('Expires').fill('2031-05-01')
    // Mantine's file input is a button over a hidden <input type=file>, which takes the file.
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: 'passport.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await passportPdf()) })
    await dialog.getByText('Uploaded.').waitFor()
    await dialog.getByRole('button', { name: 'Add identity document' }).click()
    // The service's 422 shows at the field, in words.
    await dialog.getByText('Value is not an ISO 3166-1 alpha-2 or alpha-3 country code.').waitFor()
    await screenshot(page, 'profile-enter-document')
    await dialog.getByLabel('Issuing country').fill('NO')
    await dialog.getByRole('button', { name: 'Add identity document' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('cell', { name: 'P7654321', exact: true }).waitFor()

    const path = { params: { path: { user_id: people.sam.id } } }
    const [entered] = await ok(admin.GET('/api/v1/crew/users/{user_id}/identity-documents', path))
    expect(entered).toMatchObject({
      documentType: 'passport',
      documentNumber: 'P7654321',
      issuingCountry: 'NO',
      expiryDate: '2031-05-01',
      uploadId: expect.any(String),
      verification: { status: 'pending' },
    })
    const upload = await ok(admin.GET('/api/v1/shared/uploads/{upload_id}', { params: { path: { upload_id: entered!.uploadId! } } }))
    expect(upload).toMatchObject({ kind: 'identity_document', originalFilename: 'passport.pdf' })

    // A typo corrected before anyone verifies: only the changed field is sent, the review stays pending.
    await page.getByRole('button', { name: 'Correct' }).first().click()
    await page.getByRole('dialog').getByLabel('Number').fill('P7654322')
    await page.getByRole('dialog').getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('cell', { name: 'P7654322', exact: true }).waitFor()
    const [corrected] = await ok(admin.GET('/api/v1/crew/users/{user_id}/identity-documents', path))
    expect(corrected).toMatchObject({ id: entered!.id, documentNumber: 'P7654322', verification: { status: 'pending' } })
    await page.context().close()

    await signedIn(people.employee.email)
    await page.goto(`${service.baseUrl}/console/review`)
    const item = page.locator(`[data-target-id="${entered!.id}"]`)
    await expect(item.textContent()).resolves.toContain('Passport P7654322')
    await expect(item.textContent()).resolves.toContain('Sam Sailor')
    await item.click()
    await page.getByRole('button', { name: /^Verify/ }).click()
    await item.waitFor({ state: 'detached' })
    const [verified] = await ok(admin.GET('/api/v1/crew/users/{user_id}/identity-documents', path))
    expect(verified?.verification).toMatchObject({ status: 'verified' })
    await page.goto(`${service.baseUrl}/console/crew/${people.sam.id}`)
    await page.getByRole('cell', { name: 'Eva Employee' }).waitFor()
  })

  it('an admin ends an assignment from the list', async () => {
    await signedIn(ADMIN.email)
    await page.goto(`${service.baseUrl}/console/assignments`)
    await page.getByRole('button', { name: 'End Sam Sailor on MV Work Horse' }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog.getByLabel('Signed off on').inputValue()).resolves.toBe(today())
    await dialog.getByRole('button', { name: 'End assignment' }).click()
    await dialog.waitFor({ state: 'detached' })
    const ended = await ok(admin.GET('/api/v1/assignments/{assignment_id}', { params: { path: { assignment_id: assignmentId } } }))
    expect(ended).toMatchObject({ endDate: today(), role: 'Able seaman' })
    await screenshot(page, 'assignments-ended')
  })
})
