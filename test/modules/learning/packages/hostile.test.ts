import { randomBytes } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, privateDatabase, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { cmi5Xml, importPackage, renamedInZip, zipOf } from '../../../fixtures/packages.js'
import { corruptDeflate, lieAboutSize, nestedXml, truncateEntry } from './hostile-zips.js'

// DECISIONS §13.7: packages that cannot be read fail their import with the entry named, at once, and
// never the process. Uploads up to 4 MiB, expanding to 1 MiB at most: the limits are reached with small archives.
const MAX = 4 * 1024 * 1024
const EXPANDED = 1024 * 1024
let own: Awaited<ReturnType<typeof privateDatabase>>
let t: TestApp
let org: TestOrg
beforeAll(async () => {
  own = await privateDatabase()
  t = await buildTestApp(
    { RUN_JOBS: '1', COURSE_PACKAGE_MAX_BYTES: String(MAX), COURSE_PACKAGE_MAX_EXPANDED_BYTES: String(EXPANDED) },
    { database: own.database, jobs: { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 } },
  )
  org = await createOrg(t.app, t.database.db)
})
afterAll(async () => {
  await t.app.close()
  await own.dispose()
})

const MANIFEST = { 'cmi5.xml': cmi5Xml([{ url: 'index.html' }]) }
const LESSON = '<p>A lesson on fire safety, long enough to be deflated. '.repeat(40)
const error = (code: string, path: string) => ({ code, message: expect.any(String), path })

/** Imports the package: it fails with exactly `errors`, once (no rerun), and leaves no course, package or file behind. */
async function failsWith(content: Buffer, errors: unknown[]) {
  const courses = () => t.database.db.selectFrom('courses').select('id').where('organization_id', '=', org.id).execute()
  const before = await courses()
  const job = await importPackage(t.app, org.admin.api, content)
  expect(job).toMatchObject({ status: 'failed', courseId: null })
  expect(job.errors).toEqual(errors)
  expect(await courses()).toEqual(before)
  const row = await t.database.db.selectFrom('course_imports').select('attempts').where('id', '=', job.id).executeTakeFirstOrThrow()
  expect(row.attempts).toBe(0)
  expect(await readdir(join(t.config.dataDir, 'uploads', org.id, 'packages', job.id)).catch(() => [])).toEqual([])
  return job
}

describe('entries that cannot be read', () => {
  it('fails on corrupt deflate data, naming the entry', async () => {
    const zip = corruptDeflate(await zipOf({ ...MANIFEST, 'index.html': LESSON }), 'index.html')
    const job = await failsWith(zip, [error('entry_corrupt', 'index.html')])
    expect(job.errors[0].message).toMatch(/invalid block type/)
  })

  it('fails on a truncated entry', async () => {
    const zip = truncateEntry(await zipOf({ ...MANIFEST, 'index.html': LESSON }), 'index.html', 20)
    await failsWith(zip, [error('entry_corrupt', 'index.html')])
  })

  it('fails on a corrupt manifest', async () => {
    await failsWith(corruptDeflate(await zipOf({ ...MANIFEST, 'index.html': LESSON }), 'cmi5.xml'), [error('entry_corrupt', 'cmi5.xml')])
  })

  it('stops inflating an entry that declares 1,000 bytes and holds 20 MiB', async () => {
    const zip = lieAboutSize(
      await zipOf({ ...MANIFEST, 'index.html': LESSON, 'zeros.bin': Buffer.alloc(20 * 1024 * 1024) }),
      'zeros.bin',
      1000,
    )
    const job = await failsWith(zip, [error('entry_size_mismatch', 'zeros.bin')])
    expect(job.errors[0].message).toMatch(/expected 1000\. got at least/)
  })

  it('fails on an entry shorter than it declares', async () => {
    const zip = lieAboutSize(await zipOf({ ...MANIFEST, 'index.html': LESSON }), 'index.html', LESSON.length + 10)
    await failsWith(zip, [error('entry_size_mismatch', 'index.html')])
  })
})

describe('names', () => {
  it('refuses a NUL in an entry name (shown as U+FFFD)', async () => {
    const zip = renamedInZip(await zipOf({ ...MANIFEST, 'index.html': LESSON, 'nulXname.html': 'x' }), 'nulXname.html', 'nul\0name.html')
    await failsWith(zip, [error('invalid_name', 'nul\ufffdname.html')])
  })

  it('refuses a file beside a folder of the same name', async () => {
    await failsWith(await zipOf({ ...MANIFEST, 'index.html': LESSON, a: 'file', 'a/b.html': 'inside' }), [error('path_conflict', 'a')])
  })

  it('refuses a 64 KiB name of 32,000 folders, its path shortened to 300 characters', async () => {
    const long = `${'a/'.repeat(32_000)}x.html`
    await failsWith(await zipOf({ ...MANIFEST, 'index.html': LESSON, [long]: 'x' }), [error('invalid_name', `${long.slice(0, 299)}…`)])
  })

  it('refuses a name longer than 1,024 bytes', async () => {
    const long = `${'folder/'.repeat(150)}x.html`
    await failsWith(await zipOf({ ...MANIFEST, 'index.html': LESSON, [long]: 'x' }), [error('invalid_name', `${long.slice(0, 299)}…`)])
  })

  it('refuses a `.` segment and an empty one, not the name beside them', async () => {
    await failsWith(await zipOf({ ...MANIFEST, 'index.html': LESSON, 'a/.': 'x', 'c/d.html': 'fine', 'c//d.html': 'x' }), [
      error('invalid_name', 'a/.'),
      error('invalid_name', 'c//d.html'),
    ])
  })

  it('refuses a file or folder name longer than 200 bytes', async () => {
    const long = `${'x'.repeat(220)}/page.html`
    await failsWith(await zipOf({ ...MANIFEST, 'index.html': LESSON, [long]: 'x' }), [error('invalid_name', long)])
  })

  it('keeps the first 100 errors and counts the rest', async () => {
    const bad = Object.fromEntries(Array.from({ length: 150 }, (_, n) => [`bad${n}/./page.html`, 'x']))
    const job = await failsWith(await zipOf({ ...MANIFEST, 'index.html': LESSON, ...bad }), [
      ...Array.from({ length: 100 }, (_, n) => error('invalid_name', `bad${n}/./page.html`)),
      { code: 'too_many_errors', message: 'and 50 more', path: '' },
    ])
    expect(job.errors).toHaveLength(101)
  })

  it('refuses duplicate entry names', async () => {
    const zip = renamedInZip(
      await zipOf({ ...MANIFEST, 'index.html': LESSON, 'twin-1.html': 'one', 'twin-2.html': 'two' }),
      'twin-2.html',
      'twin-1.html',
    )
    await failsWith(zip, [error('duplicate_entry', 'twin-1.html')])
  })
})

describe('manifests', () => {
  it('refuses XML nested deeper than 100 and reads 100', async () => {
    await failsWith(await zipOf({ 'imsmanifest.xml': nestedXml(101), 'index.html': LESSON }), [error('xml_too_deep', 'imsmanifest.xml')])
    // 100 deep is read: it then fails only for what it lacks.
    await failsWith(await zipOf({ 'imsmanifest.xml': nestedXml(100), 'index.html': LESSON }), [
      error('unknown_schema_version', 'imsmanifest.xml/metadata'),
    ])
  })
})

describe('expansion', () => {
  it('refuses, from the central directory, entries expanding past COURSE_PACKAGE_MAX_EXPANDED_BYTES', async () => {
    const job = await failsWith(await zipOf({ ...MANIFEST, 'index.html': LESSON, 'noise.bin': randomBytes(EXPANDED) }), [
      error('expansion_too_large', ''),
    ])
    expect(job.errors[0].message).toMatch(/at most 1048576 are accepted$/)
  })

  it('refuses an archive expanding past 100 × its size', async () => {
    await failsWith(await zipOf({ ...MANIFEST, 'index.html': LESSON, 'zeros.bin': Buffer.alloc(900 * 1024) }), [
      error('expansion_ratio_too_large', ''),
    ])
  })

  it('stores a nested zip as a file', async () => {
    const inner = await zipOf({ 'inner.html': 'x' })
    const job = await importPackage(t.app, org.admin.api, await zipOf({ ...MANIFEST, 'index.html': LESSON, 'assets/inner.zip': inner }))
    expect(job.status).toBe('complete')
    const files = await readdir(join(t.config.dataDir, 'uploads', org.id, 'packages', job.id, 'assets'))
    expect(files).toEqual(['inner.zip'])
  })
})

describe('after every hostile package', () => {
  it('the process serves, no import job failed or waits for a rerun, and another organization imports', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
    const other = await createOrg(t.app, t.database.db)
    const job = await importPackage(t.app, other.admin.api, await zipOf({ ...MANIFEST, 'index.html': LESSON }))
    expect(job.status).toBe('complete')
    const states = await sql<{ state: string }>`select distinct state from pgboss.job where name = 'course-imports'`.execute(t.database.db)
    const seen = states.rows.map((row) => row.state)
    expect(seen).toContain('completed')
    expect(seen.filter((state) => state === 'failed' || state === 'retry')).toEqual([])
  })
})
