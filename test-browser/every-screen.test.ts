import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, screenshot, seriousViolations, signInAs, type Violation } from './browser.js'
import { assign, createPerson, createShip, PASSWORD, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// Every screen and tab of every role, at a desk and on a phone: nothing the console asks for may end in
// 403 (it offers only what the role may use), nothing scrolls sideways, no text is cut off, and axe-core
// finds nothing serious.

const ADMIN = { email: 'admin@screens.test', password: PASSWORD, domain: 'screens.test' }
const SIZES = [
  { name: 'desk', width: 1400, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]

let service: RunningService
let browser: Browser
const emails = {} as Record<'admin' | 'office_admin' | 'office_employee' | 'crew', string>
let crewId: string

beforeAll(async () => {
  service = await startService(ADMIN)
  const admin = await signIn(service.baseUrl, ADMIN.email)
  const ship = await createShip(admin, 'MV Every Screen')
  const [officeAdmin, employee, crew] = await Promise.all([
    createPerson(admin, 'Oda', 'Admin', 'office_admin'),
    createPerson(admin, 'Emil', 'Employee', 'office_employee'),
    createPerson(admin, 'Cora', 'Crew', 'crew'),
  ])
  await assign(admin, crew.id, ship.id, 'Cook', { startDate: '2026-01-01' })
  crewId = crew.id
  Object.assign(emails, { admin: ADMIN.email, office_admin: officeAdmin.email, office_employee: employee.email, crew: crew.email })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

interface Finding {
  where: string
  problem: string
}

/** Waits until no loader shows: every query of the screen has answered. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  await page.getByLabel('Loading').first().waitFor({ state: 'detached' })
}

/**
 * Elements whose content is wider than their box and clipped there (overflow hidden or clip, or an ellipsis) with
 * no title to read the whole: text a person cannot see. Scroll regions, form fields and visually hidden text are
 * meant to hold more than they show.
 */
function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => {
        if (el.clientWidth <= 1 || el.scrollWidth <= el.clientWidth + 1 || el.closest('[title]')) return false
        if (el.matches('input, textarea, select, svg, svg *, canvas, img')) return false
        const style = getComputedStyle(el)
        const clips = style.overflowX === 'hidden' || style.overflowX === 'clip' || style.textOverflow === 'ellipsis'
        return clips && style.visibility !== 'hidden' && el.getClientRects().length > 0
      })
      .filter((el) => el.textContent?.trim())
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join('.')} "${el.textContent!.trim().slice(0, 40)}" ${el.scrollWidth} px in ${el.clientWidth} px`,
      ),
  )
}

/** The screen as it is now: sideways scrolling, cut-off text and serious accessibility violations. */
async function inspect(page: Page, where: string, findings: Finding[]): Promise<void> {
  await settled(page)
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth])
  if (scrollWidth > innerWidth) findings.push({ where, problem: `scrolls sideways: ${scrollWidth} px wide in ${innerWidth} px` })
  for (const cut of await cutOff(page)) findings.push({ where, problem: `cut off: ${cut}` })
  const violations: Violation[] = await seriousViolations(page)
  for (const v of violations) findings.push({ where, problem: `${v.impact} ${v.id}: ${v.help} (${v.targets.join('; ')})` })
}

/** The navigation's screens, opening the drawer first on a phone. */
async function screensOf(page: Page): Promise<string[]> {
  const burger = page.getByRole('button', { name: 'Navigation' })
  if (await burger.isVisible()) await burger.click()
  const nav = page.getByRole('navigation', { name: 'Main' })
  const links = await nav.getByRole('link').evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname))
  if (await burger.isVisible()) await burger.click()
  return links
}

describe('every screen of every role', () => {
  for (const role of ['admin', 'office_admin', 'office_employee', 'crew'] as const) {
    for (const size of SIZES) {
      it(`${role} at ${size.width} × ${size.height}`, async () => {
        const context = await browser.newContext({ viewport: { width: size.width, height: size.height } })
        const page = await context.newPage()
        const refused: string[] = []
        page.on('response', (response) => {
          if (response.status() === 403 && new URL(response.url()).pathname.startsWith('/api/')) {
            refused.push(`${response.request().method()} ${new URL(response.url()).pathname}`)
          }
        })
        const findings: Finding[] = []
        try {
          await signInAs(page, service.baseUrl, emails[role])
          const screens = await screensOf(page)
          if (role !== 'crew') screens.push(`/console/crew/${crewId}`)
          for (const path of screens) {
            await page.goto(`${service.baseUrl}${path}`)
            await inspect(page, path, findings)
            // A list that shows this role only part of the fleet says so, rather than looking like an all-clear.
            if (path === '/console/readiness' && role === 'office_employee') {
              expect(await page.getByText('You see the assignments you are part of').isVisible()).toBe(true)
            }
            const tabs = page.getByRole('tab')
            const count = await tabs.count()
            for (let i = 0; i < count; i++) {
              const name = (await tabs.nth(i).textContent()) ?? ''
              await tabs.nth(i).click()
              await inspect(page, `${path} › ${name}`, findings)
              await screenshot(page, `screens-${role}-${size.name}${path.replaceAll('/', '-')}-${name.replaceAll(' ', '-')}`)
            }
            if (count === 0) await screenshot(page, `screens-${role}-${size.name}${path.replaceAll('/', '-')}`)
          }
          expect(screens.length).toBeGreaterThan(1)
        } finally {
          await context.close()
        }
        expect(findings).toEqual([])
        expect(refused).toEqual([])
        // An admin walks some twenty screens and their tabs, each through axe-core: past the default two minutes
        // on a loaded machine.
      }, 300_000)
    }
  }
})
