import { randomBytes } from 'node:crypto'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ZipFile } from 'yazl'
import type { SeaworthyClient } from '../client/index.js'
import { launchBrowser, signInAs } from './browser.js'
import { importCourse, registeredLearner } from './scorm-courses.js'
import { createShip, PASSWORD, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// DECISIONS §16, "resumable: a dropped link continues where it stopped": a SCORM course with a 20 MB video is
// downloaded for offline play through a link that drops three times in the middle of that file (a proxy in front of
// the content origin closes the connection after so many bytes). Each Continue download asks for the rest of the file
// (Range from the bytes held), the whole file's SHA-256 is checked, and the course plays from the device with no
// link. A file whose version changed between drops (If-Range no longer matches) is fetched again from its first byte.

const ADMIN = { email: 'admin@downloads.browser.test', password: PASSWORD, domain: 'downloads.browser.test' }
const MB = 1_048_576
/** What may be on its way when the link drops and never reach the device (a busy machine reads late). */
const IN_FLIGHT = 256 * 1024

/** The link to the content origin: forwards to it, and cuts the big file's answer after `cutAfter` bytes while cuts remain. */
interface Link {
  origin: string
  target: number
  cuts: number[]
  /** Answers the big file with another version's ETag (as if the file had changed since), while set. */
  staleEtag: string | null
  requests: { range: string | undefined; ifRange: string | undefined; status: number; bytes: number }[]
  close(): Promise<void>
}

async function startLink(bigPath: RegExp): Promise<Link> {
  const link = { target: 0, cuts: [] as number[], staleEtag: null as string | null, requests: [] as Link['requests'] }
  const server: Server = createServer((req, res) => {
    const upstream = httpRequest(
      { host: '127.0.0.1', port: link.target, path: req.url, method: req.method, headers: req.headers },
      (up) => {
        const big = bigPath.test(req.url ?? '')
        const headers = { ...up.headers, ...(big && link.staleEtag ? { etag: link.staleEtag } : {}) }
        res.writeHead(up.statusCode ?? 502, headers)
        if (!big) return up.pipe(res)
        const seen = {
          range: req.headers.range,
          ifRange: req.headers['if-range'] as string | undefined,
          status: up.statusCode ?? 0,
          bytes: 0,
        }
        link.requests.push(seen)
        const cutAfter = link.cuts.shift()
        up.on('data', (chunk: Buffer) => {
          if (cutAfter !== undefined && seen.bytes + chunk.length >= cutAfter) {
            res.write(chunk.subarray(0, cutAfter - seen.bytes))
            seen.bytes = cutAfter
            up.destroy()
            // The link stalls, then drops: the browser has what was sent, then the connection closes in the middle of the body.
            setTimeout(() => res.socket?.end(), 1500)
            return
          }
          seen.bytes += chunk.length
          res.write(chunk)
        })
        up.on('end', () => res.end())
      },
    )
    upstream.on('error', () => res.socket?.destroy())
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return Object.assign(link, {
    origin,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  })
}

/** A SCORM 1.2 package: a SCO that records a pass and reads its video back from wherever it is served. */
function scormWithVideo(video: Buffer): Promise<Buffer> {
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="big-video" version="1.0" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>Lifeboat drill video</title>
    <item identifier="item" identifierref="sco"><title>Lifeboat drill video</title><adlcp:masteryscore>80</adlcp:masteryscore></item>
  </organization></organizations>
  <resources><resource identifier="sco" type="webcontent" adlcp:scormtype="sco" href="index.html">
    <file href="index.html"/><file href="sco.js"/><file href="media/drill.bin"/>
  </resource></resources>
</manifest>`
  const sco = `var api = window.parent.API;
api.LMSInitialize('');
api.LMSSetValue('cmi.core.score.raw', '90');
api.LMSSetValue('cmi.core.lesson_status', 'passed');
api.LMSCommit('');
fetch('media/drill.bin').then(function (r) { return r.arrayBuffer(); }).then(function (b) {
  document.getElementById('video').textContent = 'Video ' + b.byteLength + ' bytes';
});`
  const zip = new ZipFile()
  zip.addBuffer(Buffer.from(manifest), 'imsmanifest.xml')
  zip.addBuffer(Buffer.from('<!doctype html><title>Drill</title><p id="video">Loading</p><script src="sco.js"></script>'), 'index.html')
  zip.addBuffer(Buffer.from(sco), 'sco.js')
  zip.addBuffer(video, 'media/drill.bin', { compress: false })
  zip.end()
  const chunks: Buffer[] = []
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk))
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)))
    zip.outputStream.on('error', reject)
  })
}

let link: Link
let service: RunningService
let browser: Browser
let admin: SeaworthyClient
let shipId: string

beforeAll(async () => {
  link = await startLink(/\/media\/drill\.bin$/)
  service = await startService(ADMIN, { CONTENT_ORIGIN: link.origin })
  link.target = Number(new URL(service.baseUrl).port) + 1
  admin = await signIn(service.baseUrl, ADMIN.email)
  shipId = (await createShip(admin, 'MV Download')).id
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
  await link?.close()
})

/** A crew member signed in on My training, with the course registered. */
async function learnerOn(video: Buffer) {
  const courseId = await importCourse(admin, await scormWithVideo(video))
  const learner = await registeredLearner(service.baseUrl, admin, shipId, courseId)
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  await signInAs(page, service.baseUrl, learner.email)
  await page.goto(`${service.baseUrl}/console/me/training`)
  return { context, page }
}

const TITLE = 'Lifeboat drill video'
const download = (page: Page) => page.getByRole('button', { name: `Download for offline: ${TITLE}` })
const play = (page: Page) => page.getByRole('button', { name: `Play offline: ${TITLE}` })
const resume = (page: Page) => page.getByRole('button', { name: 'Continue download' })
/** What the content origin keeps of courses on the device: whole files, and parts of files being downloaded. */
function kept(page: Page) {
  const host = page.frames().find((frame) => frame.url().includes('/offline/host'))
  if (!host) throw new Error('The download host is not open')
  return host.evaluate(async () => {
    // The same cache holds the player's own files, installed with the worker: only the courses' are counted.
    const files = (await (await caches.open('seaworthy-offline-files')).keys()).filter((r) => r.url.includes('/offline/files/'))
    return { files: files.length, parts: (await (await caches.open('seaworthy-offline-parts')).keys()).length }
  })
}
/** Continue download once the download stopped (the button shows, disabled, while it runs). */
async function resumeWhenStopped(page: Page) {
  await expect.poll(() => resume(page).isEnabled(), { timeout: 120_000 }).toBe(true)
}

describe('a download cut in the middle of a file', () => {
  it('resumes three times from the bytes held, checks the whole file and plays it with no link', async () => {
    const video = randomBytes(20 * MB)
    const { context, page } = await learnerOn(video)
    link.cuts = [3 * MB, 5 * MB + 12_345, 6 * MB]
    await download(page).click()
    for (let drop = 1; drop <= 3; drop++) {
      await resumeWhenStopped(page)
      await resume(page).click()
    }
    await play(page).waitFor({ timeout: 120_000 })
    // Four requests for the file: the first whole, each next from the bytes the device held.
    expect(link.requests.map((r) => r.status)).toEqual([200, 206, 206, 206])
    expect(link.requests[0].range).toBeUndefined()
    // Each next request starts at the bytes the device held: all that arrived, but for what was in flight when the link dropped.
    let end = 0
    for (const [n, r] of link.requests.entries()) {
      const start = n === 0 ? 0 : Number(/^bytes=(\d+)-$/.exec(r.range ?? '')?.[1])
      if (n > 0) {
        expect(start).toBeLessThanOrEqual(end)
        expect(start).toBeGreaterThan(end - IN_FLIGHT)
        expect(r.ifRange).toMatch(/^".+"$/)
      }
      end = start + r.bytes
    }
    expect(end).toBe(video.length)
    const fetched = link.requests.reduce((n, r) => n + r.bytes, 0)
    expect(fetched).toBeLessThanOrEqual(video.length + 3 * IN_FLIGHT)

    await context.setOffline(true)
    await page.reload()
    await play(page).waitFor({ timeout: 120_000 })
    await play(page).click()
    const sco = page.frameLocator('iframe[title="Course"]')
    await expect.poll(() => sco.locator('#video').innerText(), { timeout: 60_000 }).toBe(`Video ${video.length} bytes`)
    await context.close()
  })

  it('starts the file over when it changed between drops (If-Range no longer matches) and still ends checked', async () => {
    const video = randomBytes(4 * MB)
    const { context, page } = await learnerOn(video)
    link.requests = []
    link.cuts = [1 * MB]
    link.staleEtag = '"an-earlier-version"'
    await download(page).click()
    await resumeWhenStopped(page)
    link.staleEtag = null
    await resume(page).click()
    await play(page).waitFor({ timeout: 120_000 })
    expect(link.requests.map(({ status, range, ifRange, bytes }) => ({ status, range, ifRange, bytes }))).toEqual([
      { status: 200, range: undefined, ifRange: undefined, bytes: 1 * MB },
      { status: 200, range: `bytes=${1 * MB}-`, ifRange: '"an-earlier-version"', bytes: video.length },
    ])
    await context.close()
  })

  it('leaves nothing of a cut download on the device once it is removed', async () => {
    const { context, page } = await learnerOn(randomBytes(4 * MB))
    link.requests = []
    link.cuts = [2 * MB]
    await download(page).click()
    await resumeWhenStopped(page)
    // The small files whole, the video's first bytes in parts.
    const before = await kept(page)
    expect(before.files).toBeGreaterThan(0)
    expect(before.parts).toBeGreaterThan(0)
    await page.getByRole('button', { name: `Remove from this device: ${TITLE}` }).click()
    await download(page).waitFor()
    expect(await kept(page)).toEqual({ files: 0, parts: 0 })
    await context.close()
  })
})
