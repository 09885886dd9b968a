import type { Page } from 'playwright-core'

// What the offline browser tests share (offline-courses, offline-ship-link and offline-copy .test.ts).

/** A passport added on My documents with no link: the form kept on the device with its scan. */
export async function addPassport(page: Page, number: string, scan: { name: string; mimeType: string; buffer: Buffer }) {
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

/**
 * The console's shell kept on the device: its service worker active (installed, every file precached), so the app
 * opens with no link. Before that, a page opened offline gets the browser's own error, not the console.
 */
export async function shellKept(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
}
