import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { launchBrowser, screenshot, seriousViolations, signInAs } from './browser.js'
import { createCrew, ok, PASSWORD, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// The sea-service screens (DECISIONS §14) in Debian's chromium against the service on PostgreSQL.

const ADMIN = { email: 'admin@sea.browser.test', password: PASSWORD, domain: 'sea.browser.test' }

let service: RunningService
let browser: Browser
let admin: SeaworthyClient
const people = {} as { sam: { id: string }; tia: { id: string } }

/** A verified experience row, as the office would record and check one. */
async function verifiedPeriod(userId: string, position: string, startDate: string, endDate: string, shipType: string | null = null) {
  const row = await ok(
    admin.POST('/api/v1/crew/users/{user_id}/experience', {
      params: { path: { user_id: userId } },
      body: { companyName: 'Sea Line', position, startDate, endDate, shipType },
    }),
  )
  await ok(admin.POST('/api/v1/crew/experience/{experience_id}/submit', { params: { path: { experience_id: row.id } } }))
  await ok(admin.POST('/api/v1/crew/experience/{experience_id}/verify', { params: { path: { experience_id: row.id } } }))
}

beforeAll(async () => {
  service = await startService(ADMIN)
  admin = await signIn(service.baseUrl, ADMIN.email)
  const [sam, tia] = await Promise.all([createCrew(admin, 'Sam', 'Sextant'), createCrew(admin, 'Tia', 'Tanker')])
  // Sam: 90 + 61 days with 31 shared = 120 counted; Tia: 400 days on tankers, recent.
  await verifiedPeriod(sam.id, 'Second Officer', '2025-01-01', '2025-03-31', 'bulk_carrier')
  await verifiedPeriod(sam.id, 'Second Officer', '2025-03-01', '2025-04-30', 'bulk_carrier')
  await verifiedPeriod(tia.id, 'Chief Officer', '2024-06-01', '2025-07-05', 'oil_tanker')
  Object.assign(people, { sam, tia })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

async function signedIn(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
  const page = await context.newPage()
  await signInAs(page, service.baseUrl, ADMIN.email)
  return page
}

describe('sea service in the console', () => {
  it("shows a person's summary with the overlap marked and the revalidation answer", async () => {
    const page = await signedIn()
    await page.goto(`${service.baseUrl}/console/crew/${people.sam.id}`)
    await page.getByText(/120 days in total/).waitFor()
    await page.getByText('Revalidation: 245 days needed').waitFor()
    const periods = page.getByRole('table', { name: 'Sea-service periods' })
    expect(await periods.getByText('Overlaps').count()).toBe(2)
    await screenshot(page, 'sea-service-profile')
    expect(await seriousViolations(page)).toEqual([])
    await page.context().close()
  })

  it('lists the fleet most days first, filters by ship type and downloads the CSV', async () => {
    const page = await signedIn()
    await page.goto(`${service.baseUrl}/console/sea-service`)
    const rows = page.getByRole('table', { name: 'Sea service by person' }).getByRole('row')
    await rows.filter({ hasText: 'Sam Sextant' }).waitFor()
    expect((await rows.allTextContents()).slice(1).map((text) => text.split(/\d/)[0])).toEqual(['Tia Tanker', 'Sam Sextant'])
    await page.getByRole('combobox', { name: 'Ship type' }).click()
    await page.getByRole('option', { name: 'Oil tanker' }).click()
    await rows.filter({ hasText: 'Sam Sextant' }).waitFor({ state: 'detached' })
    expect(await rows.filter({ hasText: 'Tia Tanker' }).textContent()).toContain('Eligible')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()])
    const csv = await new Response((await download.createReadStream()) as unknown as ReadableStream).text()
    expect(csv.split('\r\n')[0]).toBe('userId,userName,totalDays,daysInRole,lastFiveYearsDays,eligible')
    expect(csv).toContain(`${people.tia.id},Tia Tanker,400,,400,true`)
    expect(csv).not.toContain('Sam Sextant')
    await screenshot(page, 'sea-service-fleet')
    expect(await seriousViolations(page)).toEqual([])
    await page.context().close()
  })
})
