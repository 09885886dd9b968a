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

/**
 * A camera-sized photo of a document, made in the page: a page of text upscaled to 4000×3000 with the sensor's
 * grain, as a JPEG of about 2 MB (the quality is lowered until it is no larger than 2.6 MB).
 */
export async function cameraPhoto(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const small = new OffscreenCanvas(1000, 750)
    const pen = small.getContext('2d')!
    pen.fillStyle = '#e9e4d8'
    pen.fillRect(0, 0, 1000, 750)
    pen.fillStyle = '#1d2a44'
    pen.font = 'bold 48px sans-serif'
    pen.fillText('PASSPORT  P7654321', 60, 90)
    pen.font = '28px sans-serif'
    for (let line = 0; line < 16; line++)
      pen.fillText(`Line ${line}: Surname / Nom  OFFLINE  Given names  OONA  1990-01-0${line % 9}`, 60, 160 + line * 36)
    const canvas = new OffscreenCanvas(4000, 3000)
    const ctx = canvas.getContext('2d')!
    ctx.drawImage(small, 0, 0, 4000, 3000)
    const image = ctx.getImageData(0, 0, 4000, 3000)
    let seed = 7
    for (let i = 0; i < image.data.length; i += 4) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      const grain = (seed % 17) - 8
      image.data[i] += grain
      image.data[i + 1] += grain
      image.data[i + 2] += grain
    }
    ctx.putImageData(image, 0, 0)
    let blob: Blob | null = null
    for (const quality of [0.92, 0.85, 0.75, 0.65, 0.55]) {
      blob = await canvas.convertToBlob({ type: 'image/jpeg', quality })
      if (blob.size <= 2.6 * 1024 * 1024) break
    }
    const bytes = new Uint8Array(await blob!.arrayBuffer())
    let text = ''
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
    return btoa(text)
  })
  return Buffer.from(base64, 'base64')
}
