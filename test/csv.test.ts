import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { createAssignment, createShip, type TestShip } from './fixtures/assignments.js'
import { addRecord, addRegistration } from './fixtures/readiness.js'
import { client, useTestApp } from './app.js'
import { createOrg, type TestOrg, type TestUser } from './factories.js'

const t = useTestApp()

const EXPORTS = {
  roster: '/api/v1/crew/roster',
  assignments: '/api/v1/assignments/',
  registrations: '/api/v1/learn/registrations',
  readiness: '/api/v1/learn/readiness',
  expiring: '/api/v1/crew/expiring',
  'audit-events': '/api/v1/shared/audit-events',
  'sea-service': '/api/v1/crew/sea-service',
}

/** The property names of an OpenAPI schema, through `$ref` and `allOf` (an item built from two schema parts). */
function propertiesOf(doc: { components: { schemas: Record<string, any> } }, schema: any): string[] {
  if (schema.$ref) return propertiesOf(doc, doc.components.schemas[schema.$ref.split('/').pop()])
  if (schema.allOf) return schema.allOf.flatMap((part: unknown) => propertiesOf(doc, part))
  return Object.keys(schema.properties)
}

/** A JSON value as its CSV cell: how a client reading the file sees it. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return ''
  const text = Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value)
  return typeof value === 'number' || typeof value === 'boolean' ? text : text.replace(/^[=+\-@]/, "'$&")
}

async function exportCsv(user: TestUser, url: string, headers: Record<string, string> = { accept: 'text/csv' }) {
  const res = await user.api.get(url, headers)
  expect(res.status, res.text).toBe(200)
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
  const [header, ...rows] = parse(res.text) as string[][]
  return { res, header, rows }
}

/** Every item of the JSON list for the same filters (no export holds more than a page of 1000 here). */
async function jsonItems(user: TestUser, url: string): Promise<Record<string, unknown>[]> {
  const res = await user.api.get(`${url}${url.includes('?') ? '&' : '?'}limit=1000`)
  expect(res.status).toBe(200)
  expect(res.body.hasMore).toBe(false)
  return res.body.items
}

/** An organization with a row in every exported list: an assignment with a registration and an expiring passport. */
async function populated(): Promise<{ org: TestOrg; crew: TestUser; ship: TestShip; shipId: string }> {
  const org = await createOrg(t.app, t.database.db)
  const crew = await org.addUser('crew', { firstName: '=HYPERLINK("http://evil.example")', lastName: 'Smith, "Jr"' })
  const ship = await createShip(org, '+Ship -1')
  const assignment = await createAssignment(org, crew, ship, { role: '@Bosun' })
  await addRegistration(t.database.db, org.id, assignment.id, 'in_progress')
  const soon = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10)
  await addRecord(org, crew, 'passport', soon)
  return { org, crew, ship, shipId: ship.id }
}

describe('CSV exports', () => {
  it('answer every list with the JSON items as RFC 4180 rows under a header of the wire field names', async () => {
    const { org, crew, ship } = await populated()
    // An ended contract: its sea service counts (DECISIONS §14), so the fleet sea-service list has a row.
    await createAssignment(org, crew, ship, { role: 'Cook', startDate: '2026-01-05', endDate: '2026-02-04' })
    const doc = (await client(t.app).get('/openapi.json')).body
    for (const [name, url] of Object.entries(EXPORTS)) {
      const { res, header, rows } = await exportCsv(org.admin, url)
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${name}.csv"; filename*=UTF-8''${name}.csv`)
      expect(res.text.split('\r\n').length, name).toBe(rows.length + 2)
      const items = await jsonItems(org.admin, url)
      expect(items.length, name).toBeGreaterThan(0)
      const path = Object.keys(doc.paths).find((p) => p.replace(/\/$/, '') === url.replace(/\/$/, ''))!
      const documented = doc.paths[path].get.responses['200'].content
      expect(Object.keys(documented), name).toEqual(['application/json', 'text/csv'])
      const itemSchema = doc.components.schemas[documented['application/json'].schema.$ref.split('/').pop()].properties.items.items
      const fields = propertiesOf(doc, itemSchema)
      const expected = name === 'registrations' ? fields.filter((f) => !['user_name', 'course_title', 'ship_name'].includes(f)) : fields
      expect(header, name).toEqual(expected)
      expect(rows, name).toEqual(items.map((item) => header.map((column) => cell(item[column]))))
    }
  })

  it("quote what needs quoting and prefix cells that begin like a formula with '", async () => {
    const { org, crew } = await populated()
    const { res, header, rows } = await exportCsv(org.admin, `${EXPORTS.assignments}?user_id=${crew.id}`)
    expect(rows).toHaveLength(1)
    const row = Object.fromEntries(header.map((column, i) => [column, rows[0][i]]))
    expect(row).toMatchObject({ userName: `'=HYPERLINK("http://evil.example") Smith, "Jr"`, shipName: "'+Ship -1", role: "'@Bosun" })
    expect(res.text).toContain(`"'=HYPERLINK(""http://evil.example"") Smith, ""Jr"""`)
    const roster = await exportCsv(org.admin, `${EXPORTS.roster}?role=crew`)
    const names = roster.rows.map((r) => [r[roster.header.indexOf('firstName')], r[roster.header.indexOf('lastName')]])
    expect(names).toContainEqual([`'=HYPERLINK("http://evil.example")`, 'Smith, "Jr"'])
  })

  it('keep the filters, ignore the paging, and are asked for with Accept: text/csv or ?format=csv', async () => {
    const { org, shipId } = await populated()
    await createAssignment(org, await org.addUser('crew'), await createShip(org))
    const all = await exportCsv(org.admin, `${EXPORTS.assignments}?limit=1`)
    expect(all.rows).toHaveLength(2)
    const oneShip = await exportCsv(org.admin, `${EXPORTS.assignments}?ship_id=${shipId}&format=csv`, {})
    expect(oneShip.rows.map((r) => r[oneShip.header.indexOf('shipId')])).toEqual([shipId])
    const crewOnly = await exportCsv(org.admin, `${EXPORTS.roster}?role=crew&format=csv&limit=1`, { accept: 'application/json' })
    expect(new Set(crewOnly.rows.map((r) => r[crewOnly.header.indexOf('role')]))).toEqual(new Set(['crew']))
    expect(crewOnly.rows).toHaveLength(3)

    const jsonAccepts: Record<string, string>[] = [
      {},
      { accept: 'application/json' },
      { accept: '*/*' },
      { accept: 'text/csv;q=0.5, application/json' },
    ]
    for (const headers of jsonAccepts) {
      expect((await org.admin.api.get(EXPORTS.roster, headers)).headers['content-type']).toMatch(/^application\/json/)
    }
    expect((await org.admin.api.get(`${EXPORTS.roster}?format=json`, { accept: 'text/csv' })).body.items).toHaveLength(6)
    expect((await org.admin.api.get(`${EXPORTS.roster}?format=xlsx`)).body).toEqual({
      detail: [{ loc: ['query', 'format'], msg: expect.any(String), type: 'enum' }],
    })
  })

  it("hold only the caller's organization, and for crew only their own rows; a role without the list is still a 403", async () => {
    const mine = await populated()
    const theirs = await populated()
    for (const url of Object.values(EXPORTS)) {
      const { res } = await exportCsv(mine.org.admin, url)
      for (const id of [theirs.crew.id, theirs.shipId, theirs.org.admin.id]) expect(res.text, url).not.toContain(id)
    }
    const other = await mine.org.addUser('crew')
    await createAssignment(mine.org, other, await createShip(mine.org))
    const own = await exportCsv(mine.crew, EXPORTS.assignments)
    expect(own.rows.map((r) => r[own.header.indexOf('userId')])).toEqual([mine.crew.id])
    const refused = await mine.crew.api.get(EXPORTS.roster, { accept: 'text/csv' })
    expect(refused.status).toBe(403)
    expect(refused.headers['content-type']).toMatch(/^application\/json/)
  })

  it('are documented only on the lists that export', async () => {
    const doc = (await client(t.app).get('/openapi.json')).body
    const csv = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
      Object.entries(item)
        .filter(([, op]: [string, any]) => op.responses['200']?.content?.['text/csv'])
        .map(([method]) => `${method} ${path}`),
    )
    expect(csv.sort()).toEqual(
      Object.values(EXPORTS)
        .map((url) => `get ${url}`)
        .sort(),
    )
  })
})
