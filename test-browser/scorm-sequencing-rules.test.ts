import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SeaworthyClient } from '../client/index.js'
import { zipOf } from '../test/fixtures/packages.js'
import { type ManifestItem, manifest2004 } from '../test/fixtures/scorm-manifests.js'
import { launchBrowser } from './browser.js'
import { importCourse, registeredLearner, registrationAfter } from './scorm-courses.js'
import { createShip, ok, PASSWORD, signIn } from './seed.js'
import { type RunningService, startService } from './service.js'

// Each sequencing rule the player supports (DECISIONS §13.6), in a small SCORM 2004 package played in
// chromium: the player's outline offers a choice only where the rules allow it, previous and continue
// where flow allows them, and scorm-again's sequencing decides what the next SCO is; adl.data is shared
// across the SCOs of a launch and kept for the next. A SCO that never calls
// the API is shown as not responding (with SCORM_IDLE_SECONDS 0, so no test waits).

const ADMIN = { email: 'admin@rules.browser.test', password: PASSWORD, domain: 'rules.browser.test' }
const IDLE_ADMIN = { email: 'admin@idle.browser.test', password: PASSWORD, domain: 'idle.browser.test' }

/** A SCO that passes itself at once; the player's buttons navigate. */
const sco = (name: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title></head>
<body><p id="sco">${name}</p><script>
var api = window.parent.API_1484_11;
api.Initialize('');
api.SetValue('cmi.completion_status', 'completed');
api.SetValue('cmi.success_status', 'passed');
api.Commit('');
</script></body></html>`

const ONE_TWO_THREE = (sequencing: Partial<Record<'one' | 'two' | 'three', string>> = {}): ManifestItem[] =>
  (['one', 'two', 'three'] as const).map((id) => ({ id, href: `${id}.html`, sequencing: sequencing[id] }))
const controls = (attributes: string) => `<imsss:sequencing><imsss:controlMode ${attributes}/></imsss:sequencing>`

// A safety net for a busy machine (several browsers and services on two cores), not a speed assumption.
const SAFETY = { timeout: 30_000 }

let service: RunningService
let browser: Browser
let admin: SeaworthyClient
let shipId: string

beforeAll(async () => {
  service = await startService(ADMIN)
  admin = await signIn(service.baseUrl, ADMIN.email)
  shipId = (await createShip(admin, 'MV Rules')).id
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

async function play(on: RunningService, by: SeaworthyClient, ship: string, items: ManifestItem[], rootSequencing: string) {
  const files = Object.fromEntries(items.map((item) => [item.href!, sco(item.id)]))
  const zip = await zipOf({ 'imsmanifest.xml': manifest2004(items, { rootSequencing }), ...files })
  const { crew, registrationId } = await registeredLearner(on.baseUrl, by, ship, await importCourse(by, zip))
  const launched = await ok(
    crew.POST('/api/v1/learn/registrations/{registration_id}/launch', { params: { path: { registration_id: registrationId } }, body: {} }),
  )
  const page = await browser.newPage()
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await page.goto(launched.url)
  return { page, dialogs, crew, registrationId }
}

const at = async (page: Page, name: string) => {
  await expect.poll(() => page.locator('.player-outline [aria-current]').textContent(), SAFETY).toBe(name)
  await expect.poll(() => page.frameLocator('iframe[title="Course"]').locator('#sco').textContent(), SAFETY).toBe(name)
}
const choices = (page: Page) => page.locator('.player-outline button').allTextContents()
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true })

describe('sequencing rules in the player', () => {
  it('choice off: no outline choices; flow: continue and previous', async () => {
    const { page, dialogs } = await play(service, admin, shipId, ONE_TWO_THREE(), controls('choice="false" flow="true"'))
    await at(page, 'one')
    expect(await choices(page)).toEqual([])
    await button(page, 'Continue').click()
    await at(page, 'two')
    expect(await button(page, 'Previous').isEnabled()).toBe(true)
    await button(page, 'Previous').click()
    await at(page, 'one')
    expect(dialogs).toEqual([])
    await page.close()
  })

  it('forwardOnly: no previous', async () => {
    const { page } = await play(service, admin, shipId, ONE_TWO_THREE(), controls('choice="false" flow="true" forwardOnly="true"'))
    await at(page, 'one')
    await button(page, 'Continue').click()
    await at(page, 'two')
    await expect.poll(() => button(page, 'Previous').isDisabled(), SAFETY).toBe(true)
    await page.close()
  })

  it('choice on: the outline offers the others; a precondition hides an activity from choice', async () => {
    const hidden = `<imsss:sequencing><imsss:sequencingRules><imsss:preConditionRule><imsss:ruleConditions><imsss:ruleCondition condition="always"/></imsss:ruleConditions><imsss:ruleAction action="hiddenFromChoice"/></imsss:preConditionRule></imsss:sequencingRules></imsss:sequencing>`
    const { page } = await play(service, admin, shipId, ONE_TWO_THREE({ three: hidden }), controls('choice="true" flow="true"'))
    await at(page, 'one')
    await expect.poll(() => choices(page), SAFETY).toEqual(['two'])
    await page.locator('.player-outline').getByRole('button', { name: 'two' }).click()
    await at(page, 'two')
    await page.close()
  })

  it('a limit condition: an activity of one attempt is not offered again once attempted', async () => {
    const once = '<imsss:sequencing><imsss:limitConditions attemptLimit="1"/></imsss:sequencing>'
    const { page } = await play(service, admin, shipId, ONE_TWO_THREE({ one: once }), controls('choice="true" flow="true"'))
    await at(page, 'one')
    await button(page, 'Continue').click()
    await at(page, 'two')
    await expect.poll(() => choices(page), SAFETY).toEqual(['three'])
    await page.close()
  })

  it('an objective map: one writes its satisfaction to a global objective, which two reads to be skipped', async () => {
    const writes = `<imsss:sequencing><imsss:objectives><imsss:primaryObjective objectiveID="one_done"><imsss:mapInfo targetObjectiveID="g_one" writeSatisfiedStatus="true"/></imsss:primaryObjective></imsss:objectives></imsss:sequencing>`
    const skips = `<imsss:sequencing><imsss:sequencingRules><imsss:preConditionRule><imsss:ruleConditions><imsss:ruleCondition condition="satisfied"/></imsss:ruleConditions><imsss:ruleAction action="skip"/></imsss:preConditionRule></imsss:sequencingRules><imsss:objectives><imsss:primaryObjective objectiveID="two_done"><imsss:mapInfo targetObjectiveID="g_one" readSatisfiedStatus="true"/></imsss:primaryObjective></imsss:objectives></imsss:sequencing>`
    const { page, crew, registrationId } = await play(
      service,
      admin,
      shipId,
      ONE_TWO_THREE({ one: writes, two: skips }),
      controls('choice="false" flow="true"'),
    )
    await at(page, 'one')
    await button(page, 'Continue').click()
    await at(page, 'three')
    await button(page, 'Exit course').click()
    await page.getByText('You have left the course').waitFor()
    // two was skipped, never delivered; the default rollup counts the satisfied children it has.
    const registration = await registrationAfter(crew, registrationId, 2)
    expect(registration.attempt_count).toBe(2)
    await page.close()
  })
})

describe('shared data (adl.data)', () => {
  it('one SCO writes a bucket another reads, in the same launch and after suspend all and a new launch', async () => {
    const map = '<adlcp:data><adlcp:map targetID="notes" readSharedData="true" writeSharedData="true"/></adlcp:data>'
    const items: ManifestItem[] = [
      { id: 'writer', href: 'writer.html', sequencing: map },
      { id: 'reader', href: 'reader.html', sequencing: map },
    ]
    const page = (name: string, body: string) =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title></head><body><p id="sco">${name}</p><p id="data"></p><script>
var api = window.parent.API_1484_11;
api.Initialize('');
${body}
api.SetValue('cmi.completion_status', 'completed');
api.Commit('');
</script></body></html>`
    const files = {
      'writer.html': page('writer', "api.SetValue('adl.data.0.store', 'knots: ' + api.GetValue('adl.data.0.id'));"),
      'reader.html': page('reader', "document.getElementById('data').textContent = api.GetValue('adl.data.0.store');"),
    }
    const zip = await zipOf({ 'imsmanifest.xml': manifest2004(items, { rootSequencing: controls('choice="true" flow="true"') }), ...files })
    const { crew, registrationId } = await registeredLearner(service.baseUrl, admin, shipId, await importCourse(admin, zip))
    const launch = async () => {
      const launched = await ok(
        crew.POST('/api/v1/learn/registrations/{registration_id}/launch', {
          params: { path: { registration_id: registrationId } },
          body: {},
        }),
      )
      const tab = await browser.newPage()
      await tab.goto(launched.url)
      return tab
    }
    const data = (tab: Page) => tab.frameLocator('iframe[title="Course"]').locator('#data').textContent()
    const first = await launch()
    await at(first, 'writer')
    await button(first, 'Continue').click()
    await at(first, 'reader')
    await expect.poll(() => data(first), SAFETY).toBe('knots: notes')
    await button(first, 'Suspend and leave').click()
    await first.getByText('You have left the course').waitFor()
    await first.close()
    const again = await launch()
    await at(again, 'reader')
    await expect.poll(() => data(again), SAFETY).toBe('knots: notes')
    await again.close()
  })
})

describe('an idle SCO', () => {
  let idle: RunningService
  beforeAll(async () => {
    idle = await startService(IDLE_ADMIN, { SCORM_IDLE_SECONDS: '0' })
  })
  afterAll(async () => {
    await idle?.stop()
  })

  it('that never calls the API is shown as not responding, with a way back, and its session ends abandoned', async () => {
    const by = await signIn(idle.baseUrl, IDLE_ADMIN.email)
    const ship = (await createShip(by, 'MV Idle')).id
    const items = [{ id: 'silent', href: 'silent.html' }]
    const files = { 'silent.html': '<!doctype html><html lang="en"><title>Silent</title><p>no API here</p></html>' }
    const zip = await zipOf({ 'imsmanifest.xml': manifest2004(items), ...files })
    const { crew, registrationId } = await registeredLearner(idle.baseUrl, by, ship, await importCourse(by, zip))
    const launched = await ok(
      crew.POST('/api/v1/learn/registrations/{registration_id}/launch', {
        params: { path: { registration_id: registrationId } },
        body: {},
      }),
    )
    const page = await browser.newPage()
    await page.goto(launched.url)
    await page.getByRole('alert').filter({ hasText: 'This content is not responding.' }).waitFor()
    expect(await page.getByRole('button', { name: 'Back' }).isVisible()).toBe(true)
    expect(await registrationAfter(crew, registrationId, 1)).toMatchObject({ status: 'in_progress', attempt_count: 1 })
    const sessions = await ok(
      crew.GET('/api/v1/learn/registrations/{registration_id}/sessions', { params: { path: { registration_id: registrationId } } }),
    )
    expect(sessions.items.map((s) => s.endedBy)).toEqual(['abandoned'])
    await page.close()
  })
})
