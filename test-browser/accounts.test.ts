import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSeaworthyClient, type SeaworthyClient } from '../client/index.js'
import { launchBrowser, screenshot, signInAs } from './browser.js'
import { PASSWORD, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// Accounts in the console (DECISIONS §15): invitation and reset links, staying signed in across the
// access token's lifetime and across tabs. The service's access tokens live 60 s (its minimum).

const ADMIN = { email: 'admin@accounts.test', password: PASSWORD, domain: 'accounts.test' }
const TOKEN_SECONDS = 60

let service: RunningService
let browser: Browser
let admin: SeaworthyClient

beforeAll(async () => {
  service = await startService(ADMIN, { ACCESS_TOKEN_TTL_SECONDS: String(TOKEN_SECONDS), LOGIN_MAX_FAILURES_PER_EMAIL: '3' })
  admin = await signIn(service.baseUrl, ADMIN.email)
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

/** A page in a browser context of its own: its own storage, as another person's browser. */
async function freshPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
  return context.newPage()
}

async function invite(firstName: string) {
  const email = `${firstName.toLowerCase()}@accounts.test`
  const { data, response } = await admin.POST('/api/v1/shared/users', { body: { email, firstName, lastName: 'Invited', role: 'crew' } })
  expect(response.status).toBe(201)
  return { email, url: data!.invitation!.url }
}

async function setPassword(page: Page, password: string) {
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(password)
  await page.getByLabel('Repeat the password').fill(password)
  await page.getByRole('button', { name: 'Save password and sign in' }).click()
}

describe('accounts in the console', () => {
  it('lets an invited person set a password from the link, signs them in, and lets them sign in again', async () => {
    const person = await invite('Iris')
    const page = await freshPage()
    await page.goto(person.url)
    await page.getByRole('heading', { name: 'Welcome to Seaworthy' }).waitFor()
    await screenshot(page, 'accounts-invitation')
    await setPassword(page, 'short')
    await page.getByText('The password needs at least 10 characters.').waitFor()
    await setPassword(page, 'iris chose this password')
    await page.getByRole('button', { name: 'Sign out' }).waitFor()
    await page.getByRole('banner').getByText('Iris Invited (crew)').waitFor()

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    await signInAs(page, service.baseUrl, person.email, 'iris chose this password')

    // The link was spent: opened again, it says so.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.goto(person.url)
    await setPassword(page, 'another long password')
    await page.getByRole('alert').getByText('This invitation has expired or was already used.', { exact: false }).waitFor()
    await page.context().close()
  })

  it('lets an admin add a person without a password, copy the invitation link shown, and the person accept it', async () => {
    const office = await freshPage()
    await office.context().grantPermissions(['clipboard-read', 'clipboard-write'])
    await signInAs(office, service.baseUrl, ADMIN.email)
    await office.goto(`${service.baseUrl}/console/crew`)
    await office.getByRole('button', { name: 'New person' }).click()
    const dialog = office.getByRole('dialog')
    await dialog.getByLabel('First name').fill('Noor')
    await dialog.getByLabel('Last name').fill('Added')
    await dialog.getByLabel('E-mail').fill('noor@accounts.test')
    await dialog.getByRole('button', { name: 'Add person' }).click()

    const shown = office.getByRole('status', { name: 'Invitation link' })
    await shown.getByText('It works until', { exact: false }).waitFor()
    await office.getByRole('heading', { name: 'Noor Added' }).waitFor()
    await screenshot(office, 'accounts-profile-invitation')
    await shown.getByRole('button', { name: 'Copy link' }).click()
    await shown.getByRole('button', { name: 'Copied' }).waitFor()
    const copied = await office.evaluate(() => navigator.clipboard.readText())
    expect(await shown.getByTestId('account-link').textContent()).toBe(copied)
    expect(new URL(copied).pathname).toMatch(/^\/console\/invite\/[\w-]+$/)

    const person = await freshPage()
    await person.goto(copied)
    await setPassword(person, 'noor chose this password')
    await person.getByRole('banner').getByText('Noor Added (crew)').waitFor()
    const users = await admin.GET('/api/v1/shared/users', { params: { query: { search: 'noor@accounts.test' } } })
    expect(users.data!.items.map((u) => [u.email, u.role, u.state])).toEqual([['noor@accounts.test', 'crew', 'active']])

    // Now active: the profile offers a password reset instead of an invitation, and shows its link.
    await office.reload()
    await office.getByRole('button', { name: 'Reset password' }).click()
    const reset = office.getByRole('status', { name: 'Password reset link' })
    expect(new URL((await reset.getByTestId('account-link').textContent()) ?? '').pathname).toMatch(/^\/console\/reset\//)
    expect(await office.getByRole('button', { name: 'Resend invitation' }).count()).toBe(0)
    await person.context().close()
    await office.context().close()
  })

  it('issues a new invitation from a pending person\'s profile, which spends the earlier link', async () => {
    const pending = await invite('Ode')
    const users = await admin.GET('/api/v1/shared/users', { params: { query: { search: pending.email } } })
    const office = await freshPage()
    await signInAs(office, service.baseUrl, ADMIN.email)
    await office.goto(`${service.baseUrl}/console/crew/${users.data!.items[0].id}`)
    await office.getByRole('button', { name: 'Resend invitation' }).click()
    const shown = office.getByRole('status', { name: 'Invitation link' })
    const url = (await shown.getByTestId('account-link').textContent()) ?? ''
    expect(url).not.toBe(pending.url)
    const earlier = await freshPage()
    await earlier.goto(pending.url)
    await setPassword(earlier, 'ode tried the old link')
    await earlier.getByRole('alert').getByText('This invitation has expired or was already used.', { exact: false }).waitFor()
    await earlier.context().close()
    await office.context().close()
  })

  it('lets a person choose a new password from an admin reset link', async () => {
    const person = await invite('Rafe')
    const page = await freshPage()
    await page.goto(person.url)
    await setPassword(page, 'rafe first password')
    await page.getByRole('button', { name: 'Sign out' }).waitFor()
    const users = await admin.GET('/api/v1/shared/users', { params: { query: { search: person.email } } })
    const { data: reset } = await admin.POST('/api/v1/shared/users/{user_id}/password-reset', {
      params: { path: { user_id: users.data!.items[0].id } },
    })
    const other = await freshPage()
    await other.goto(reset!.url)
    await other.getByRole('heading', { name: 'Choose a new password' }).waitFor()
    await setPassword(other, 'rafe second password')
    await other.getByRole('button', { name: 'Sign out' }).waitFor()
    // The reset ended the earlier sign-in: the first browser is sent back to sign in.
    await page.reload()
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    await page.context().close()
    await other.context().close()
  })

  it('changes the own password from the user menu', async () => {
    const person = await invite('Paz')
    const page = await freshPage()
    await page.goto(person.url)
    await setPassword(page, 'paz first password')
    await page.getByRole('link', { name: 'Change password' }).click()
    await page.getByLabel('Current password').fill('not my password')
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('paz second password')
    await page.getByLabel('Repeat the new password').fill('paz second password')
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByText('This is not your current password.').waitFor()
    await page.getByLabel('Current password').fill('paz first password')
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByRole('status').getByText('Your password has been changed.').waitFor()
    const login = await createSeaworthyClient({ baseUrl: service.baseUrl }).POST('/api/v1/auth/token', {
      body: { email: person.email, password: 'paz second password' },
    })
    expect(login.response.status).toBe(200)
    await page.context().close()
  })

  it('says when a locked-out sign-in can be tried again', async () => {
    const page = await freshPage()
    await page.goto(`${service.baseUrl}/console/sign-in`)
    await page.getByLabel('E-mail').fill('nobody@accounts.test')
    const attempt = async (password: string) => {
      await page.getByLabel(/^Password/).fill(password)
      const answered = page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/token'))
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      return (await answered).status()
    }
    for (const n of [1, 2, 3]) expect(await attempt(`wrong password ${n}`)).toBe(401)
    expect(await attempt('wrong password 4')).toBe(429)
    await page
      .getByRole('alert')
      .getByText(/^Too many failed sign-ins\. Try again in 15 minutes, at \d{2}:\d{2}/)
      .waitFor()
    await page.context().close()
  })

  it('stays signed in past the access token lifetime, shares the sign-in with a second tab, and signs out both', async () => {
    const page = await freshPage()
    await signInAs(page, service.baseUrl, ADMIN.email)
    const first = await page.evaluate(() => JSON.parse(localStorage.getItem('seaworthy.session') ?? '{}'))
    const firstExpiry: number = first.expiresAt

    // A second tab of the same browser starts signed in.
    const second = await page.context().newPage()
    await second.goto(`${service.baseUrl}/console/crew`)
    await second.getByRole('button', { name: 'Sign out' }).waitFor()

    // Wait (on the clock, not a fixed sleep) until the first access token has run out, then use the console.
    await page.waitForFunction((expiry) => Date.now() > expiry + 1000, firstExpiry, { timeout: (TOKEN_SECONDS + 30) * 1000, polling: 1000 })
    const stale = await createSeaworthyClient({ baseUrl: service.baseUrl, token: first.token }).GET('/api/v1/users/me')
    expect(stale.response.status).toBe(401)
    const now = await page.evaluate(() => JSON.parse(localStorage.getItem('seaworthy.session') ?? '{}'))
    expect(now.token).not.toBe(first.token)
    expect(now.refreshToken).not.toBe(first.refreshToken)
    await page.goto(`${service.baseUrl}/console/crew`)
    await page.getByRole('heading', { name: 'Crew' }).waitFor()
    await second.reload()
    await second.getByRole('button', { name: 'Sign out' }).waitFor()
    expect(new URL(second.url()).pathname).toBe('/console/crew')

    // Signing out in one tab signs out the other, and the refresh token stops working.
    await second.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    const refresh = await createSeaworthyClient({ baseUrl: service.baseUrl }).POST('/api/v1/auth/token', {
      body: { grant_type: 'refresh_token', refresh_token: now.refreshToken },
    })
    expect(refresh.response.status).toBe(401)
    await page.context().close()
  })
})
