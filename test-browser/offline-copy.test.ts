import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { launchBrowser, signInAs } from './browser.js'
import { shellKept } from './offline.js'
import { createCrew, PASSWORD, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// A crew screen's answer is on the device before the screen shows it (DECISIONS §16: what a person saw online is
// there offline). Kept after, the copy was lost when the page was left at once (a reload, a link followed): the
// browser aborts the page's unfinished writes, and with no link the screen had nothing to show. The page records,
// in order, each write of the kept copies as it completes and the moment My documents shows its action.

const ADMIN = { email: 'admin@offline-copy.browser.test', password: PASSWORD, domain: 'offline-copy.browser.test' }

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

/** The kept copies of the screens gone from the device, all but who is signed in (so the console opens offline). */
async function forgetCopies(page: Page) {
  await page.evaluate(async () => {
    const open = indexedDB.open('seaworthy-offline')
    const db = await new Promise<IDBDatabase>((resolve) => (open.onsuccess = () => resolve(open.result)))
    const tx = db.transaction('snapshots', 'readwrite')
    const store = tx.objectStore('snapshots')
    const keys = store.getAllKeys()
    keys.onsuccess = () => {
      for (const key of keys.result) if ((key as string[])[1] !== JSON.stringify(['me'])) store.delete(key)
    }
    await new Promise((resolve) => (tx.oncomplete = resolve))
    db.close()
  })
}

it('keeps My documents on the device before it shows them', async () => {
  const person = await createCrew(admin, 'Kees', 'Kept')
  const context = await browser.newContext()
  const page = await context.newPage()
  await signInAs(page, service.baseUrl, person.email)
  // Away from My profile (which reads the same lists) before they are forgotten: no read of them is on its way.
  await page.goto(`${service.baseUrl}/console/me/training`)
  await page.getByRole('heading', { name: 'My training' }).waitFor()
  await page.addInitScript(() => {
    const seen: string[] = []
    Object.assign(window, { seen })
    // Heard before the console's own listeners (added once the transaction is made), so before anything it awaits.
    const kept = new WeakMap<IDBTransaction, string>()
    const transaction = IDBDatabase.prototype.transaction
    IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
      const tx = transaction.apply(this, args)
      tx.addEventListener('complete', () => kept.has(tx) && seen.push(`kept ${kept.get(tx)}`))
      return tx
    }
    const put = IDBObjectStore.prototype.put
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: { key?: string }, key?: IDBValidKey) {
      if (this.name === 'snapshots') kept.set(this.transaction, JSON.parse(value.key ?? '[]')[0])
      return put.call(this, value, key)
    }
    const shown = () => [...document.querySelectorAll('button')].some((button) => button.textContent === 'Add a document')
    new MutationObserver(() => {
      if (!seen.includes('shown') && shown()) seen.push('shown')
    }).observe(document, { subtree: true, childList: true })
  })
  for (let visit = 0; visit < 3; visit++) {
    // No copy yet (signing in read My profile, whose documents are the same query): the screen shows the answer.
    await forgetCopies(page)
    await page.goto(`${service.baseUrl}/console/me/documents`)
    await page.getByRole('button', { name: 'Add a document' }).waitFor()
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen)
    // Kept before shown (when the observer has not reported yet, the button is there now: kept by now).
    const shownAt = seen.includes('shown') ? seen.indexOf('shown') : seen.length
    expect(seen.slice(0, shownAt), JSON.stringify({ visit, seen, url: page.url() })).toContain('kept documents')
  }
  await context.close()
})

it('says a screen never read on this device is not kept, and shows it once the link returns', async () => {
  const person = await createCrew(admin, 'Nina', 'Never')
  const context = await browser.newContext()
  const page = await context.newPage()
  await signInAs(page, service.baseUrl, person.email)
  // Away from My profile (which reads the same lists) before they are forgotten: no read of them is on its way.
  await page.goto(`${service.baseUrl}/console/me/training`)
  await page.getByRole('heading', { name: 'My training' }).waitFor()
  await forgetCopies(page)
  await shellKept(page)
  await context.setOffline(true)
  await page.goto(`${service.baseUrl}/console/me/documents`)
  await page.getByText(/^Offline/).waitFor()
  // Both lists wait for the link and say so (a spinner would say it is coming).
  const notKept = page.getByText('Not kept on this device yet: shown when the link returns.')
  await notKept.nth(1).waitFor()
  expect(await notKept.count()).toBe(2)
  expect(await page.getByLabel('Loading').count()).toBe(0)
  await context.setOffline(false)
  await page.getByRole('button', { name: 'Add a document' }).waitFor()
  expect(await page.getByText('Not kept on this device yet').count()).toBe(0)
  await context.close()
})
