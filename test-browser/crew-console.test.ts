import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { launchBrowser, screenshot, seriousViolations, signInAs } from './browser.js'
import { assign, createCrew, createPerson, createShip, ok, PASSWORD, passportPdf, requirePassport, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// The crew's own screens on a phone: a passport sent from the phone, rejected, corrected and verified; a
// cmi5 course started from My training, passed, and the next contract turning ready.

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

async function phonePage(email: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true })).newPage()
  await signInAs(page, service.baseUrl, email)
  return page
}

/** Opens a screen through the navigation drawer, as on a phone. */
async function openFromDrawer(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: 'Navigation' }).click()
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click()
  await page.getByRole('heading', { level: 1, name: label }).waitFor()
}

/** No sideways scrolling and nothing serious for axe-core on the screen as it is now. */
async function fitsAndPasses(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth])
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
  expect(await seriousViolations(page)).toEqual([])
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
    await page.locator('input[type=file]:not([capture])').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') })
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

    const [document] = await ok(office.GET('/api/v1/crew/users/{user_id}/identity-documents', { params: { path: { user_id: crew.id } } }))
    await ok(
      office.POST('/api/v1/crew/identity-documents/{document_id}/reject', {
        params: { path: { document_id: document!.id } },
        body: { reason: 'The number does not match the scan' },
      }),
    )
    await page.reload()
    await page.getByText('The number does not match the scan').waitFor()
    await fitsAndPasses(page)
    await screenshot(page, 'crew-document-rejected-phone')
    await page.getByRole('button', { name: 'Correct and resubmit' }).click()
    const correction = page.getByRole('form', { name: 'Correct the identity document' })
    await correction.getByLabel('Number').fill('P1234567')
    await correction.getByRole('button', { name: 'Resubmit' }).click()
    await expect.poll(() => card.getAttribute('data-review')).toBe('pending')

    await ok(office.POST('/api/v1/crew/identity-documents/{document_id}/verify', { params: { path: { document_id: document!.id } } }))
    await page.reload()
    await expect.poll(() => card.getAttribute('data-review')).toBe('verified')
    // A verified one warns before a change that would send it back to review.
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByText('sends it back to the office for review').waitFor()
    await page.context().close()
  })
})
