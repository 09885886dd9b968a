import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, privateDatabase, type TestApp } from '../../../app.js'
import { createOrg, type TestOrg } from '../../../factories.js'
import { postForm } from '../../../fixtures/uploads.js'
import { cmi5Xml, importPackage, renamedInZip, scormPackage, zipOf } from '../../../fixtures/packages.js'

// 4 MiB packages, expanding to at most 16 MiB: the limits are reached with small archives.
const MAX = 4 * 1024 * 1024
let own: Awaited<ReturnType<typeof privateDatabase>>
let t: TestApp
let org: TestOrg
beforeAll(async () => {
  own = await privateDatabase()
  t = await buildTestApp(
    { RUN_JOBS: '1', COURSE_PACKAGE_MAX_BYTES: String(MAX) },
    { database: own.database, jobs: { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 } },
  )
  org = await createOrg(t.app, t.database.db)
})
afterAll(async () => {
  await t.app.close()
  await own.dispose()
})

const INDEX = { 'index.html': '<p>lesson</p>' }
const error = (code: string, path: string, message: unknown = expect.any(String)) => ({ code, message, path })

/** Imports the package; it fails with exactly `errors` and leaves no course, package or file behind. */
async function failsWith(content: Buffer, errors: unknown[], mime = 'application/zip') {
  const coursesBefore = await t.database.db.selectFrom('courses').select('id').where('organization_id', '=', org.id).execute()
  const job = await importPackage(t.app, org.admin.api, content, { mime })
  expect(job).toMatchObject({ status: 'failed', courseId: null })
  expect(job.errors).toEqual(errors)
  const coursesAfter = await t.database.db.selectFrom('courses').select('id').where('organization_id', '=', org.id).execute()
  expect(coursesAfter).toEqual(coursesBefore)
  const packages = await t.database.db.selectFrom('course_packages').select('id').where('id', '=', job.id).execute()
  expect(packages).toEqual([])
  const files = await readdir(join(t.config.dataDir, 'uploads', org.id, 'packages', job.id)).catch(() => [])
  expect(files).toEqual([])
  const event = await t.database.db.selectFrom('events').select('type').where('target_id', '=', job.id).execute()
  expect(event).toEqual([{ type: 'course_import.failed' }])
  return job
}

describe('cmi5 rules', () => {
  it('checks cmi5.xml against the course structure schema', async () => {
    const xml = cmi5Xml([{ url: 'index.html' }]).replace('<url>index.html</url>', '')
    const job = await failsWith(await zipOf({ 'cmi5.xml': xml, ...INDEX }), [error('schema_invalid', 'cmi5.xml:7')])
    expect(job.errors[0].message).toContain('url')
    expect(job.standard).toBe('cmi5')
  })

  it('refuses a document type declaration (entities are never expanded)', async () => {
    const xml = cmi5Xml([{ url: 'index.html' }]).replace('<courseStructure', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<courseStructure')
    await failsWith(await zipOf({ 'cmi5.xml': xml, ...INDEX }), [error('xml_doctype', 'cmi5.xml')])
  })

  it('names every broken id, URL and launch parameter rule at once, each with its AU', async () => {
    const xml = cmi5Xml([
      { id: 'https://example.com/au/same', url: 'index.html' },
      { id: 'https://example.com/au/same', url: 'missing.html' },
      { id: 'not an iri', url: 'index.html?registration=1&amp;x=2' },
      { url: 'ftp://example.com/a.html' },
      { url: '../outside.html' },
    ])
    await failsWith(await zipOf({ 'cmi5.xml': xml, ...INDEX }), [
      error('duplicate_id', 'au[1]', 'The id "https://example.com/au/same" is also used by au[0]'),
      error('url_not_in_package', 'au[1]', '"missing.html" names no file of the package'),
      error('invalid_iri', 'au[2]', '"not an iri" is not a fully qualified IRI'),
      error('launch_parameter_collision', 'au[2]', 'The query parameter "registration" is one the LMS sets at launch'),
      error('invalid_url', 'au[3]', '"ftp://example.com/a.html" is not a valid http(s) URL'),
      error('url_not_in_package', 'au[4]', '"../outside.html" names no file of the package'),
    ])
  })

  it('checks block and objective ids too', async () => {
    const xml = cmi5Xml([{ url: 'index.html' }]).replace(
      '</course>',
      `</course>
  <objectives><objective id="https://example.com/objective/1"><title><langstring>O</langstring></title><description><langstring>O</langstring></description></objective></objectives>
  <block id="https://example.com/objective/1"><title><langstring>B</langstring></title><description><langstring>B</langstring></description>
    <au id="https://example.com/au/in-block"><title><langstring>A</langstring></title><description><langstring>A</langstring></description><url>index.html</url></au>
  </block>`,
    )
    await failsWith(await zipOf({ 'cmi5.xml': xml, ...INDEX }), [
      error('duplicate_id', 'courseStructure/block[0]', 'The id "https://example.com/objective/1" is also used by courseStructure/objective[0]'),
    ])
  })

  it('takes a cmi5.xml alone only with absolute AU URLs', async () => {
    await failsWith(Buffer.from(cmi5Xml([{ url: 'https://content.example.com/1.html' }, { url: 'index.html' }])), [error('relative_url_without_package', 'au[1]')], 'text/xml')
  })

  it('needs cmi5.xml or imsmanifest.xml at the root', async () => {
    await failsWith(await zipOf({ 'course/cmi5.xml': cmi5Xml([{ url: 'index.html' }]), ...INDEX }), [error('no_manifest', '')])
  })
})

describe('unsafe archives', () => {
  it('refuses entries whose paths leave the package, without writing anything', async () => {
    const zip = await zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'index.html' }]), ...INDEX, 'xx/evil.html': 'a', 'Zetc/passwd': 'b' })
    const unsafe = renamedInZip(renamedInZip(zip, 'xx/evil.html', '../evil.html'), 'Zetc/passwd', '/etc/passwd')
    await failsWith(unsafe, [error('unsafe_path', '../evil.html'), error('unsafe_path', '/etc/passwd')])
  })

  it('refuses symbolic links', async () => {
    const zip = await zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'index.html' }]), ...INDEX, 'link.html': { content: '/etc/passwd', mode: 0o120777 } })
    await failsWith(zip, [error('link', 'link.html', 'The entry is a symbolic link')])
  })

  it('refuses more than 20,000 entries, from the central directory alone', async () => {
    // The count is read from the end-of-central-directory record before any entry: a small zip that declares
    // 20,001 entries stands for a real one (whose making and upload took minutes on a loaded machine).
    const zip = await zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'index.html' }]), ...INDEX })
    const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
    zip.writeUInt16LE(20_001, end + 8)
    zip.writeUInt16LE(20_001, end + 10)
    await failsWith(zip, [error('too_many_entries', '', 'The archive has 20001 entries; at most 20000 are accepted')])
  })

  it('refuses an archive expanding past 4 × COURSE_PACKAGE_MAX_BYTES (and, of zeros, past 100 × its size)', async () => {
    const zip = await zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'index.html' }]), ...INDEX, 'zeros.bin': Buffer.alloc(4 * MAX) })
    const job = await failsWith(zip, [error('expansion_too_large', ''), error('expansion_ratio_too_large', '')])
    expect(job.errors[0].message).toMatch(/at most 16777216 are accepted$/)
  })

  it('refuses content that is not a zip at the upload already', async () => {
    const content = Buffer.from('<p>not a zip</p>')
    const intent = await org.admin.api.post('/api/v1/shared/uploads/intent', {
      kind: 'course_package',
      mime: 'application/zip',
      size: content.length,
      filename: 'course.zip',
    })
    const { uploadId, presignedPost } = intent.body
    expect((await postForm(t.app, presignedPost.url, presignedPost.fields, content)).status).toBe(204)
    const finalized = await org.admin.api.post(`/api/v1/shared/uploads/${uploadId}/finalize`)
    expect(finalized.body).toMatchObject({ status: 'rejected', threatName: 'ContentTypeMismatch' })
    const res = await org.admin.api.post('/api/v1/learn/course-imports', { uploadId })
    expect(res.status).toBe(422)
    expect(res.body.detail).toEqual([{ loc: ['body', 'uploadId'], msg: 'Not a ready upload of kind course_package', type: 'value_error' }])
  })
})

describe('SCORM rules', () => {
  const manifest = (version: string, organization: string, resources: string) => `<?xml version="1.0"?>
<manifest identifier="m" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>${version}</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>Course</title>${organization}</organization></organizations>
  <resources>${resources}</resources>
</manifest>`

  it('detects SCORM 1.2 and 2004 packages made by simple-scorm-packager', async () => {
    for (const [version, standard] of [
      ['1.2', 'scorm12'],
      ['2004 4th Edition', 'scorm2004'],
    ] as const) {
      const job = await importPackage(t.app, org.admin.api, await scormPackage(version, INDEX, { masteryScore: 70 }))
      expect(job).toMatchObject({ status: 'complete', standard, errors: [] })
      const structure = await org.admin.api.get(`/api/v1/learn/courses/${job.courseId}/structure`)
      expect(structure.body).toEqual({
        standard,
        // SCORM 2004: the organization's activity tree with its sequencing (its own test: standards/scorm/sequencing.test.ts).
        ...(standard === 'scorm2004' && { activities: [expect.objectContaining({ parentId: null }), expect.objectContaining({ id: 'item_bridge-watchkeeping', auIndex: 0 })] }),
        aus: [
          { index: 0, id: 'item_bridge-watchkeeping', title: 'Bridge watchkeeping', url: 'index.html', moveOn: 'CompletedOrPassed', masteryScore: 0.7, launchMethod: 'AnyWindow' },
        ],
      })
    }
  })

  it('needs a known schema version', async () => {
    await failsWith(await zipOf({ 'imsmanifest.xml': manifest('1.1', '', ''), ...INDEX }), [error('unknown_schema_version', 'imsmanifest.xml/metadata')])
  })

  it('needs every referenced resource, and each SCO with an href to a file of the package', async () => {
    const organization = `<item identifier="a" identifierref="gone"><title>A</title></item>
      <item identifier="b" identifierref="r-no-href"><title>B</title></item>
      <item identifier="c" identifierref="r-missing-file"><title>C</title></item>`
    const resources = `<resource identifier="r-no-href" type="webcontent" adlcp:scormtype="sco"/>
      <resource identifier="r-missing-file" type="webcontent" adlcp:scormtype="sco" href="lesson/missing.html"/>`
    const job = await failsWith(await zipOf({ 'imsmanifest.xml': manifest('1.2', organization, resources), ...INDEX }), [
      error('missing_resource', 'imsmanifest.xml/organization/item[0]'),
      error('missing_href', 'imsmanifest.xml/organization/item[1]'),
      error('href_not_in_package', 'imsmanifest.xml/organization/item[2]', '"lesson/missing.html" names no file of the package'),
    ])
    expect(job.standard).toBe('scorm12')
  })
})

describe('a failed replacement', () => {
  it('leaves the course and its package as they were', async () => {
    const first = await importPackage(t.app, org.admin.api, await zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'index.html' }]), ...INDEX }))
    const before = await t.database.db.selectFrom('courses').selectAll().where('id', '=', first.courseId).executeTakeFirstOrThrow()
    const job = await importPackage(t.app, org.admin.api, await zipOf({ 'cmi5.xml': cmi5Xml([{ url: 'gone.html' }]), ...INDEX }), {
      courseId: first.courseId,
    })
    expect(job).toMatchObject({ status: 'failed', courseId: first.courseId, errors: [error('url_not_in_package', 'au[0]')] })
    const after = await t.database.db.selectFrom('courses').selectAll().where('id', '=', first.courseId).executeTakeFirstOrThrow()
    expect(after).toEqual(before)
  })
})
