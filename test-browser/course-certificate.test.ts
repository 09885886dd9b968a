import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { launchBrowser, screenshot, seriousViolations, signInAs } from './browser.js'
import { ok, PASSWORD, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// The course form's certificate template (DECISIONS §14) in Debian's chromium against the service on PostgreSQL.

const ADMIN = { email: 'admin@courses.browser.test', password: PASSWORD, domain: 'courses.browser.test' }

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

describe('the course form', () => {
  it('creates a course with the certificate a pass issues', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
    const page = await context.newPage()
    await signInAs(page, service.baseUrl, ADMIN.email)
    await page.goto(`${service.baseUrl}/console/learning`)
    await page.getByRole('button', { name: 'New course' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Title').fill('Basic safety refresher')
    await dialog.getByLabel('Package location').fill('courses/basic-safety')
    await dialog.getByRole('combobox', { name: 'Certificate issued on pass' }).click()
    await page.getByRole('option', { name: 'STCW basic safety' }).click()
    await dialog.getByLabel('Certificate validity (months)').fill('60')
    await screenshot(page, 'course-certificate-form')
    expect(await seriousViolations(page)).toEqual([])
    await dialog.getByRole('button', { name: 'Add course' }).click()
    await dialog.waitFor({ state: 'detached' })
    const page1 = await ok(admin.GET('/api/v1/courses/', { params: { query: { search: 'Basic safety refresher' } } }))
    const course = await ok(admin.GET('/api/v1/courses/{course_id}', { params: { path: { course_id: page1.items[0]!.id } } }))
    expect(course.certificate).toEqual({ certificateType: 'stcw_basic_safety', validityMonths: 60 })
    await context.close()
  })
})
