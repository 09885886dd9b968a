import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { relay } from '../test/fixtures/tus.js'
import { launchBrowser, screenshot, signInAs } from './browser.js'
import { cameraPhoto } from './offline.js'
import { createCrew, ok, PASSWORD, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// A document photographed with no link (DECISIONS §16), in chromium: the camera's 2 MB photo is shrunk on the
// device before it is kept, and when the link returns it goes with tus; the link drops in the middle of it (a
// relay in front of the service drops every connection 100 KB into the PATCH and refuses connections for 2 s), and
// the next request continues at the offset the service kept. The relay counts every byte the browser sends.

const ADMIN = { email: 'admin@upload.browser.test', password: PASSWORD, domain: 'upload.browser.test' }
const MB = 1024 * 1024
const CUT_AFTER = 100_000

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

/** The tus requests of the page, as they end: each PATCH's starting offset and its answer (0: cut), each HEAD's offset. */
function countTus(page: Page) {
  const patches: { offset: number; status: number }[] = []
  const heads: number[] = []
  const isTus = (url: string) => url.includes('/api/v1/shared/resumable-uploads')
  page.on('requestfinished', async (request) => {
    if (!isTus(request.url()) || request.method() !== 'PATCH') return
    patches.push({ offset: Number(await request.headerValue('upload-offset')), status: (await request.response())?.status() ?? 0 })
  })
  page.on('requestfailed', async (request) => {
    if (isTus(request.url()) && request.method() === 'PATCH')
      patches.push({ offset: Number(await request.headerValue('upload-offset')), status: 0 })
  })
  page.on('response', (response) => {
    if (isTus(response.url()) && response.request().method() === 'HEAD') heads.push(Number(response.headers()['upload-offset']))
  })
  return { patches, heads }
}

describe('a document photographed offline', () => {
  it('leaves the device shrunk, resumes after the link drops mid-upload, and arrives once', async () => {
    const person = await createCrew(admin, 'Pia', 'Photo')
    const link = await relay(Number(new URL(service.baseUrl).port), {
      marker: 'PATCH /api/v1/shared/resumable-uploads/',
      bytes: CUT_AFTER,
      downMs: 2_000,
    })
    const base = link.url
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await signInAs(page, base, person.email)
    const photo = await cameraPhoto(page)
    expect(photo.length).toBeGreaterThan(1.5 * MB)
    await page.goto(`${base}/console/me/documents`)
    await page.getByRole('button', { name: 'Add a document' }).waitFor()
    const tus = countTus(page)

    await context.setOffline(true)
    await page.getByRole('button', { name: 'Add a document' }).click()
    const form = page.getByRole('form', { name: 'New identity document' })
    await form.getByLabel('Type').click()
    await page.getByRole('option', { name: 'Passport' }).click()
    await form.getByLabel('Number').fill('P7654321')
    await form.getByLabel('Issuing country').fill('NO')
    await form.getByLabel('Expires').fill('2032-03-01')
    await page.locator('input[type=file]:not([capture])').setInputFiles({ name: 'passport.jpg', mimeType: 'image/jpeg', buffer: photo })
    const note = page.getByText(/the scan is kept on this device/)
    await note.waitFor()
    const [, sentKb, fromKb] = /Sent as (\d+) KB \(shrunk on this device from (\d+) KB\)/.exec(await note.innerText()) ?? []
    expect(Number(fromKb)).toBe(Math.ceil(photo.length / 1024))
    const sent = Number(sentKb) * 1024
    expect(sent).toBeLessThan(photo.length / 3)
    await screenshot(page, 'offline-upload-shrunk')
    await form.getByRole('button', { name: 'Send identity document' }).click()
    await form.waitFor({ state: 'detached' })

    // The link returns: the scan goes, is cut 100 KB in, and continues; then the record.
    const before = link.sent()
    await context.setOffline(false)

    const passports = () => ok(admin.GET('/api/v1/crew/users/{user_id}/identity-documents', { params: { path: { user_id: person.id } } }))
    await expect.poll(async () => (await passports()).length, { timeout: 90_000 }).toBe(1)
    const [passport] = await passports()
    const upload = await ok(admin.GET('/api/v1/shared/uploads/{upload_id}', { params: { path: { upload_id: passport.uploadId! } } }))
    expect(upload).toMatchObject({ status: 'ready', sizeBytes: expect.any(Number) })
    expect(Math.ceil(upload.sizeBytes / 1024)).toBe(Number(sentKb))
    expect(Math.max(upload.width!, upload.height!)).toBeLessThanOrEqual(1600)

    // The cut PATCH, then one that continued where the service stood: the scan's bytes sent once, not twice.
    expect(link.wasCut()).toBe(true)
    const kept = tus.heads.at(-1)!
    expect(kept, JSON.stringify(tus)).toBeGreaterThan(0)
    expect(kept).toBeLessThanOrEqual(CUT_AFTER)
    // First the cut PATCH from 0: it failed, or chromium sent it again once the link was back and the service,
    // already holding bytes past 0, refused it (409). Last, the one from the offset the service reported.
    expect(tus.patches.at(-1)).toEqual({ offset: kept, status: 204 })
    for (const early of tus.patches.slice(0, -1)) expect([early.offset, [0, 409].includes(early.status)]).toEqual([0, true])
    // Every byte the browser sent from the link's return to the document made, headers and the pass's other
    // requests included: the scan's bytes past the service's offset once; at most chromium's resend of the cut
    // request comes on top (on loopback its whole body is out before the 409 closes the connection).
    const onTheWire = link.sent() - before
    expect(onTheWire).toBeGreaterThan(upload.sizeBytes)
    expect(onTheWire).toBeLessThan(2 * upload.sizeBytes + CUT_AFTER + 64 * 1024)
    console.log(`scan ${upload.sizeBytes} bytes (from ${photo.length}); on the wire from the link's return: ${onTheWire} bytes`)
    // Once more with the link: nothing more is sent or made.
    await page.reload()
    await page.getByRole('button', { name: 'Add a document' }).waitFor()
    expect(await passports()).toHaveLength(1)
    await context.close()
    await link.close()
  })
})
