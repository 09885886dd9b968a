import { cmi5Entries, cmi5Package, cmi5Xml, nestedXml, scormEntries, scormManifest } from '../courses.js'
import { type Case, hostileCase } from '../harness.js'
import { IMPORT_ERROR_CODES, MIB, PACKAGE_MAX_EXPANDED_BYTES } from '../settings.js'
import { importUpload, uploadPackage } from '../world.js'
import { entry, stored, type ZipEntry, zeros, zip } from '../zip.js'

// Broken course packages (DECISIONS §13.7): each uploaded as an admin would, then imported; the import
// must end `failed` with an error naming the entry (never kill the process, never stay running).

const group = 'package'

/** A deflated entry whose compressed bytes are not a deflate stream (0xff: block type 3, which does not exist). */
const corrupt = (name: string, declared = 200): ZipEntry => ({ name, data: Buffer.alloc(64, 0xff), method: 8, size: declared, crc: 0 })

const without = (entries: ZipEntry[], name: string) => entries.filter((e) => e.name !== name)

interface Expected {
  code: string
  /** The error's path: exactly this, or any of these, or a test. */
  path: string | string[] | ((path: string) => boolean)
}

const pathMatches = (expected: Expected['path'], path: string) =>
  typeof expected === 'function' ? expected(path) : Array.isArray(expected) ? expected.includes(path) : expected === path

/** A case whose package must fail to import with an error of `expected`. */
function failsToImport(name: string, build: () => Promise<Buffer>, expected: Expected): Case {
  return hostileCase({
    group,
    name,
    prepare: async (world) => uploadPackage(world.admin, await build()),
    run: async (world, uploadId, signal) => {
      const job = await importUpload(world.admin, uploadId, signal)
      const named = job.errors.some((e: { code: string; path: string }) => e.code === expected.code && pathMatches(expected.path, e.path))
      if (job.status === 'failed' && named) return null
      const wanted = `${expected.code} at ${typeof expected.path === 'function' ? 'the entry' : JSON.stringify(expected.path)}`
      return `import ${job.status} with ${JSON.stringify(job.errors).slice(0, 400)}; expected failed with ${wanted}`
    },
  })
}

const PACKAGE_LEVEL = ['', 'bomb.bin']
const startsWith = (prefix: string) => (path: string) => path.startsWith(prefix)

export const packageCases: Case[] = [
  failsToImport('corrupt deflate data', async () => zip([...without(cmi5Entries(), 'index.html'), corrupt('index.html')]), {
    code: IMPORT_ERROR_CODES.corruptEntry,
    path: 'index.html',
  }),
  failsToImport('entry declaring 1,000 bytes inflates to 200 MiB', async () => cmi5Package([await zeros('big.bin', 200 * MIB, 1000)]), {
    code: IMPORT_ERROR_CODES.lyingSize,
    path: 'big.bin',
  }),
  failsToImport(
    `zip bomb: 100 MiB of zeros (> ${PACKAGE_MAX_EXPANDED_BYTES / MIB} MiB, > 100 × compressed)`,
    async () => cmi5Package([await zeros('bomb.bin', 100 * MIB)]),
    {
      code: IMPORT_ERROR_CODES.expansion,
      path: PACKAGE_LEVEL,
    },
  ),
  failsToImport(
    'zip bomb by ratio: 16 MiB of zeros (under the size limit, > 100 × compressed)',
    async () => cmi5Package([await zeros('bomb.bin', 16 * MIB)]),
    {
      code: IMPORT_ERROR_CODES.ratio,
      path: PACKAGE_LEVEL,
    },
  ),
  failsToImport('NUL in an entry name', async () => cmi5Package([entry('evil\u0000.html', '<p>x</p>')]), {
    code: IMPORT_ERROR_CODES.nulName,
    path: startsWith('evil'),
  }),
  failsToImport('a file `a` beside `a/b.html`', async () => cmi5Package([entry('a', 'file'), entry('a/b.html', '<p>b</p>')]), {
    code: IMPORT_ERROR_CODES.fileFolderClash,
    path: ['a', 'a/b.html'],
  }),
  failsToImport(
    'cmi5.xml nested 5,000 deep',
    async () => zip([entry('cmi5.xml', cmi5Xml(nestedXml(5000))), ...without(cmi5Entries(), 'cmi5.xml')]),
    {
      code: IMPORT_ERROR_CODES.deepXml,
      path: startsWith('cmi5.xml'),
    },
  ),
  failsToImport(
    'imsmanifest.xml nested 101 deep',
    async () => zip([entry('imsmanifest.xml', scormManifest(nestedXml(101))), ...without(scormEntries(), 'imsmanifest.xml')]),
    {
      code: IMPORT_ERROR_CODES.deepXml,
      path: startsWith('imsmanifest.xml'),
    },
  ),
  failsToImport(
    'corrupt manifest: cmi5.xml cut off mid-element',
    async () => zip([entry('cmi5.xml', cmi5Xml().slice(0, 400)), ...without(cmi5Entries(), 'cmi5.xml')]),
    {
      code: IMPORT_ERROR_CODES.malformedXml,
      path: startsWith('cmi5.xml'),
    },
  ),
  failsToImport(
    'corrupt manifest: cmi5.xml with corrupt deflate data',
    async () => zip([corrupt('cmi5.xml', 2000), ...without(cmi5Entries(), 'cmi5.xml')]),
    {
      code: IMPORT_ERROR_CODES.corruptEntry,
      path: 'cmi5.xml',
    },
  ),
  failsToImport('duplicate entry names', async () => cmi5Package([entry('index.html', '<p>the other one</p>')]), {
    code: IMPORT_ERROR_CODES.duplicateEntry,
    path: 'index.html',
  }),
  hostileCase({
    group,
    name: 'nested zips (a zip in a zip in the package) import cleanly',
    prepare: async (world) => {
      const innermost = zip([entry('index.html', '<p>inner</p>')])
      return uploadPackage(
        world.admin,
        cmi5Package([stored('inner.zip', zip([stored('deeper.zip', innermost), entry('readme.txt', 'nested')]))]),
      )
    },
    run: async (world, uploadId: string, signal) => {
      const job = await importUpload(world.admin, uploadId, signal)
      return job.status === 'complete' || job.status === 'failed' ? null : `import ${job.status}`
    },
  }),
  hostileCase({
    group,
    name: 'crew asks for a course_package upload intent: 403',
    run: async (world) => {
      const intent = { kind: 'course_package', mime: 'application/zip', size: MIB, filename: 'course.zip' }
      const res = await world.crewA.api.post('/api/v1/shared/uploads/intent', intent)
      return res.status === 403 ? null : `answered ${res.status} ${res.answer.text.slice(0, 200)}`
    },
  }),
  hostileCase({
    group,
    name: 'an office admin may ask for a course_package upload intent: 201',
    run: async (world) => {
      const intent = { kind: 'course_package', mime: 'application/zip', size: 1024, filename: 'course.zip' }
      const res = await world.officeAdmin.post('/api/v1/shared/uploads/intent', intent)
      return res.status === 201 ? null : `answered ${res.status} ${res.answer.text.slice(0, 200)}`
    },
  }),
]
