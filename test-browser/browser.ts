import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import axe from 'axe-core'
import { type Browser, chromium, type Page } from 'playwright-core'
import { PASSWORD } from './seed.js'

/** Debian's chromium by default (installed by .ci/run); CHROMIUM_PATH names another. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const SCREENSHOTS = join(import.meta.dirname, 'screenshots')

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  // No sandbox: CI runs as root, where chromium refuses to start with it.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
}

export async function signInAs(page: Page, baseUrl: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/console/sign-in`)
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel(/^Password/).fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.getByRole('button', { name: 'Sign out' }).waitFor()
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })
}

export interface Violation {
  id: string
  impact: string
  help: string
  targets: string[]
}

/**
 * axe-core on the page as it is now: the serious and critical violations. The engine is handed to the
 * page through the DevTools protocol, which the console's CSP (scripts from 'self' only) does not govern.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(axe.source)
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }))
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }))
}
