import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, screenshot, seriousViolations, signInAs } from './browser.js'
import { createPerson, PASSWORD, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// Admin › Learning records (issue 26): an LRS credential made in the console, a statement posted with it
// by a plain xAPI client, found again in the statement browser, in Debian's chromium on PostgreSQL.

const ADMIN = { email: 'admin@records.browser.test', password: PASSWORD, domain: 'records.browser.test' }
const COMPLETED = 'http://adlnet.gov/expapi/verbs/completed'
const LAUNCHED = 'http://adlnet.gov/expapi/verbs/launched'
const EXPERIENCED = 'http://adlnet.gov/expapi/verbs/experienced'

let service: RunningService
let browser: Browser
let crewId: string
let officeAdminEmail: string

beforeAll(async () => {
  service = await startService(ADMIN)
  const admin = await signIn(service.baseUrl, ADMIN.email)
  const [crew, officeAdmin] = await Promise.all([
    createPerson(admin, 'Lena', 'Lookout', 'crew'),
    createPerson(admin, 'Otto', 'Office', 'office_admin'),
  ])
  crewId = crew.id
  officeAdminEmail = officeAdmin.email
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

async function openTab(email: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage()
  await signInAs(page, service.baseUrl, email)
  await page.goto(`${service.baseUrl}/console/admin`)
  await page.getByRole('tab', { name: 'Learning records' }).click()
  return page
}

/** A statement as a course would send it, by the person's agent on the service's public URL (docs/xapi.md). */
function statement(verb: string, course: string) {
  return {
    actor: { objectType: 'Agent', name: 'Lena Lookout', account: { homePage: service.baseUrl, name: crewId } },
    verb: { id: verb, display: { 'en-US': verb.split('/').pop() } },
    object: { id: `https://courses.example.com/${course}`, definition: { name: { 'en-US': `Course ${course}` } } },
  }
}

async function post(key: string, secret: string, body: unknown): Promise<string[]> {
  const response = await fetch(`${service.baseUrl}/api/v1/learn/xapi/statements`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`,
      'x-experience-api-version': '1.0.3',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  })
  expect(response.status).toBe(200)
  return response.json()
}

async function noSidewaysScrolling(page: Page): Promise<void> {
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth])
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
}

describe('Admin › Learning records', () => {
  it('creates a credential with its secret shown once, and finds what it wrote by verb, with its JSON', async () => {
    const page = await openTab(ADMIN.email, { width: 1400, height: 900 })
    const form = page.getByRole('form', { name: 'New LRS credential' })
    await form.getByRole('textbox', { name: 'Name' }).fill('Bridge simulator')
    await form.getByRole('button', { name: 'Create credential' }).click()
    const note = page.getByRole('status', { name: 'LRS secret, shown only once' })
    await note.waitFor()
    const secret = (await note.getByTestId('xapi-secret').textContent()) ?? ''
    const row = page.getByRole('table', { name: 'LRS credentials' }).getByRole('row', { name: /Bridge simulator/ })
    const key = (await row.locator('code').textContent()) ?? ''
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('all')
    expect(secret.length).toBeGreaterThan(20)
    await screenshot(page, 'admin-lrs-secret')
    expect(await seriousViolations(page)).toEqual([])
    await note.getByRole('button', { name: 'I have stored it' }).click()
    await note.waitFor({ state: 'detached' })
    expect(await page.getByText(secret).count()).toBe(0)

    // A course writes with the credential: one launch, then one completion; and a visitor's statement.
    await post(key, secret, { ...statement(EXPERIENCED, 'welcome'), actor: { mbox: 'mailto:visitor@example.com' } })
    await post(key, secret, statement(LAUNCHED, 'gmdss'))
    const [completedId] = await post(key, secret, statement(COMPLETED, 'gmdss'))

    await page.reload()
    await page.getByRole('tab', { name: 'Learning records' }).click()
    const statements = page.getByRole('table', { name: 'Statements' })
    await statements.getByRole('row', { name: /launched/ }).waitFor()
    await page.getByRole('combobox', { name: 'Verb' }).fill(COMPLETED)
    await page.keyboard.press('Escape')
    await statements.getByRole('row', { name: /launched/ }).waitFor({ state: 'detached' })
    const rows = statements.getByRole('row')
    // The filtered page replaces the list as it arrives: count once it has settled.
    await expect.poll(() => rows.count()).toBe(2) // the header and the completion
    expect(await rows.nth(1).textContent()).toContain('Course gmdss')
    await page.getByRole('button', { name: `Show the JSON of statement ${completedId}` }).click()
    const json = JSON.parse((await page.getByTestId('statement-json').textContent()) ?? '')
    expect(json).toMatchObject({
      id: completedId,
      verb: { id: COMPLETED },
      actor: { account: { name: crewId } },
      authority: { account: { name: key } },
    })
    await screenshot(page, 'admin-lrs-statement')
    expect(await seriousViolations(page)).toEqual([])
    await noSidewaysScrolling(page)

    // Deleted after a confirmation: the credential is refused from then on.
    await row.getByRole('button', { name: 'Delete' }).click()
    await row.getByRole('button', { name: 'Yes, delete' }).click()
    await page.getByText('No lrs credentials.').waitFor()
    const refused = await fetch(`${service.baseUrl}/api/v1/learn/xapi/statements`, {
      headers: { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`, 'x-experience-api-version': '1.0.3' },
    })
    expect(refused.status).toBe(401)
  })

  it('shows an office admin the statements (the first test wrote) but not the credentials, filtered by person, on a phone without sideways scrolling', async () => {
    const page = await openTab(officeAdminEmail, { width: 390, height: 844 })
    const rows = page.getByRole('table', { name: 'Statements' }).getByRole('row')
    await rows.nth(3).waitFor() // the header and the three statements of the first test
    expect(await page.getByRole('form', { name: 'New LRS credential' }).count()).toBe(0)
    expect(await page.getByRole('table', { name: 'LRS credentials' }).count()).toBe(0)
    await page.getByRole('combobox', { name: 'Person' }).fill('Lena')
    await page.getByRole('option', { name: /Lena Lookout/ }).click()
    await rows.nth(3).waitFor({ state: 'detached' }) // the visitor's statement is left out
    // The filtered page replaces the list as it arrives: read it once it has settled.
    await expect.poll(() => rows.allTextContents()).toEqual([
      expect.any(String),
      expect.stringContaining('completed'),
      expect.stringContaining('launched'),
    ])
    await screenshot(page, 'office-admin-lrs-phone')
    expect(await seriousViolations(page)).toEqual([])
    await noSidewaysScrolling(page)
  })
})
