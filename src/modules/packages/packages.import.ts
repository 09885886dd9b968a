import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../config.js'
import type { Db } from '../../db/database.js'
import type { ImportError } from '../../db/schema.js'
import type { EventSource } from '../../lib/events.js'
import type { Storage } from '../../lib/storage.js'
import { insertCourse, updateCourse } from '../courses/courses.queries.js'
import { findUpload, type UploadRow } from '../uploads/uploads.queries.js'
import { EXPANSION_FACTOR, openArchive, type PackageArchive } from './archive.js'
import { CMI5_FILE, readCmi5 } from './cmi5.js'
import type { ParsedPackage } from './package-model.js'
import { finishImport, type ImportRow, insertPackage, lockRunningImport, runningImports } from './packages.queries.js'
import { readScorm, SCORM_FILE } from './scorm.js'

export const IMPORT_QUEUE = 'course-imports'
const MAX_XML_BYTES = 32 * 1024 * 1024

/** Where a package version's files live: one prefix per import, so a rerun of the same import writes the same keys. */
export const packagePrefix = (orgId: string, importId: string) => `${orgId}/packages/${importId}/`

interface ImportDeps {
  db: Db
  storage: Storage
  config: Config
  log: FastifyBaseLogger
}

type Examined = { parsed: ParsedPackage; archive: PackageArchive | null } | { errors: ImportError[]; standard?: ImportRow['standard'] }

const failed = (errors: { list: ImportError[] }, standard?: ImportRow['standard']): Examined => ({ errors: errors.list, standard })

async function readWhole(stream: AsyncIterable<Buffer>): Promise<string | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    size += chunk.length
    if (size > MAX_XML_BYTES) return null
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

const tooLarge = (path: string): Examined => ({ errors: [{ code: 'manifest_too_large', message: 'The manifest is too large', path }] })

/** Detects the standard and checks every rule; a valid zip stays open for its files to be stored. */
async function examine(deps: ImportDeps, upload: UploadRow, work: string): Promise<Examined> {
  if (upload.mime === 'text/xml') {
    const text = await readWhole(deps.storage.read(upload.storage_key))
    if (text === null) return tooLarge(CMI5_FILE)
    const { parsed, errors } = await readCmi5(text, null)
    return parsed ? { parsed, archive: null } : failed(errors, 'cmi5')
  }
  const file = join(work, 'package.zip')
  // The archive is spooled to a temporary file (yauzl reads the central directory at its end); nothing is extracted.
  await pipeline(deps.storage.read(upload.storage_key), createWriteStream(file))
  const { archive, errors } = await openArchive(file, EXPANSION_FACTOR * deps.config.coursePackageMaxBytes)
  if (!archive) return failed(errors)
  const files = new Set(archive.files.keys())
  const manifest = files.has(CMI5_FILE) ? CMI5_FILE : files.has(SCORM_FILE) ? SCORM_FILE : null
  if (!manifest) {
    archive.close()
    return { errors: [{ code: 'no_manifest', message: `Neither ${CMI5_FILE} nor ${SCORM_FILE} is at the package's root`, path: '' }] }
  }
  const text = await archive.readText(manifest)
  if (text === null) {
    archive.close()
    return tooLarge(manifest)
  }
  const read = manifest === CMI5_FILE ? { ...(await readCmi5(text, files)), standard: 'cmi5' as const } : readScorm(text, files)
  if (read.parsed) return { parsed: read.parsed, archive }
  archive.close()
  return failed(read.errors, read.standard ?? null)
}

/** Streams every file of the archive into storage under `prefix`; on a failure, what was written is removed. */
async function storeFiles(storage: Storage, archive: PackageArchive, prefix: string): Promise<string[]> {
  const written: string[] = []
  try {
    for (const [path, entry] of archive.files) {
      await storage.write(prefix + path, await archive.open(path), entry.uncompressedSize)
      written.push(prefix + path)
    }
    return written
  } catch (error) {
    await Promise.all(written.map((key) => storage.remove(key)))
    throw error
  }
}

const sourceOf = (row: ImportRow): EventSource => ({
  orgId: row.organization_id,
  actor: { userId: row.created_by, role: 'admin' },
  requestId: row.request_id,
})

function fail(db: Db, row: ImportRow, errors: ImportError[], standard: ImportRow['standard'] = null) {
  return finishImport(db, sourceOf(row), row, { status: 'failed', standard, courseId: row.course_id, errors })
}

/** The course (new, or the one replaced), its package version and the import's end, in one transaction. */
function complete(db: Db, row: ImportRow, parsed: ParsedPackage, prefix: string): Promise<boolean> {
  const source = sourceOf(row)
  return db.transaction().execute(async (trx) => {
    if (!(await lockRunningImport(trx, row))) return true
    const columns = { s3_path: prefix, launch_file: parsed.aus[0].url, title: parsed.title, description: parsed.description }
    const course = row.course_id ? await updateCourse(trx, source, row.course_id, columns) : await insertCourse(trx, source, columns)
    if (!course) return false
    await insertPackage(trx, row.organization_id, { id: row.id, courseId: course.id, prefix, parsed })
    await finishImport(trx, source, row, { status: 'complete', standard: parsed.standard, courseId: course.id, errors: [] })
    return true
  })
}

async function runImport(deps: ImportDeps, row: ImportRow): Promise<void> {
  const upload = await findUpload(deps.db, row.organization_id, row.upload_id)
  const work = await mkdtemp(join(tmpdir(), 'seaworthy-import-'))
  try {
    const examined = await examine(deps, upload!, work)
    if ('errors' in examined) return void (await fail(deps.db, row, examined.errors, examined.standard))
    const prefix = packagePrefix(row.organization_id, row.id)
    const written = examined.archive ? await storeFiles(deps.storage, examined.archive, prefix).finally(() => examined.archive!.close()) : []
    if (await complete(deps.db, row, examined.parsed, prefix)) return
    await Promise.all(written.map((key) => deps.storage.remove(key)))
    await fail(deps.db, row, [{ code: 'course_missing', message: 'The course to replace was deleted during the import', path: '' }])
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

/**
 * The import job: every running import, oldest first. One that fails for a reason outside the
 * package (storage or database unreachable) stays running and the job fails, so the queue runs it
 * again; a rerun of an import writes the same keys and ends it once.
 */
export function importHandler(deps: ImportDeps) {
  return async () => {
    let trouble: unknown = null
    for (const row of await runningImports(deps.db)) {
      await runImport(deps, row).catch((error: unknown) => {
        deps.log.error({ err: error, importId: row.id }, 'course import could not run; it runs again')
        trouble = error
      })
    }
    if (trouble) throw trouble
  }
}
