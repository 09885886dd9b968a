import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../../config.js'
import type { Db } from '../../../db/database.js'
import type { ImportError } from '../../../db/schema.js'
import type { EventSource } from '../../../lib/events.js'
import type { Storage } from '../../../lib/storage.js'
import { findUpload } from '../../platform/uploads/uploads.queries.js'
import { insertCourse, updateCourse } from '../courses/courses.queries.js'
import { ImportFailure, type PackageReader, type ParsedPackage } from './package-model.js'
import { examine, removeAll, type StoredFile, storeFiles } from './packages.examine.js'
import {
  countFailedRun,
  finishImport,
  type ImportRow,
  importStatus,
  insertPackage,
  lockImport,
  runningImports,
} from './packages.queries.js'

export const IMPORT_QUEUE = 'course-imports'
/** DECISIONS §13.7: an import that fails for a reason outside its package runs again this many times at most. */
export const MAX_RETRIES = 3
// How often a running import looks whether it was cancelled (by any instance).
const CANCEL_CHECK_MS = 1000

/** Where a package version's files live: one prefix per import, so a rerun of the same import writes the same keys. */
export const packagePrefix = (orgId: string, importId: string) => `${orgId}/packages/${importId}/`

export interface ImportDeps {
  db: Db
  storage: Storage
  config: Config
  log: FastifyBaseLogger
  /** The standards' package readers (standards/index.ts). */
  readers: readonly PackageReader[]
}

type RunningImport = ImportRow & { running_seconds: number }

const sourceOf = (row: ImportRow): EventSource => ({
  orgId: row.organization_id,
  actor: { userId: row.created_by, role: 'admin' },
  requestId: row.request_id,
})

function fail(db: Db, row: ImportRow, errors: ImportError[], standard: ImportRow['standard'] = null) {
  return finishImport(db, sourceOf(row), row, { status: 'failed', standard, courseId: row.course_id, errors })
}

/** The course (new, or the one replaced), its package version and the import's end, in one transaction; else how it had ended. */
function complete(db: Db, row: ImportRow, parsed: ParsedPackage, prefix: string, files: readonly StoredFile[]) {
  const source = sourceOf(row)
  return db.transaction().execute(async (trx): Promise<'complete' | 'failed' | 'course_missing'> => {
    const status = await lockImport(trx, row)
    if (status !== 'running') return status
    const columns = { s3_path: prefix, launch_file: parsed.aus[0].url, title: parsed.title, description: parsed.description }
    const course = row.course_id ? await updateCourse(trx, source, row.course_id, columns) : await insertCourse(trx, source, columns)
    if (!course) return 'course_missing'
    await insertPackage(trx, row.organization_id, { id: row.id, courseId: course.id, prefix, parsed, files })
    await finishImport(trx, source, row, { status: 'complete', standard: parsed.standard, courseId: course.id, errors: [] })
    return 'complete'
  })
}

async function runImport(deps: ImportDeps, row: ImportRow, signal: AbortSignal): Promise<void> {
  const { db, storage } = deps
  signal.throwIfAborted()
  const upload = await findUpload(db, row.organization_id, row.upload_id)
  if (!upload) throw ImportFailure.of('upload_missing', 'The uploaded package is gone')
  const work = await mkdtemp(join(tmpdir(), 'seaworthy-import-'))
  try {
    const { parsed, archive } = await examine(deps, upload, work, signal)
    const prefix = packagePrefix(row.organization_id, row.id)
    const written = archive ? await storeFiles(storage, archive, prefix, signal).finally(() => archive.close()) : []
    const keys = written.map((file) => file.key)
    const outcome = await complete(db, row, parsed, prefix, written).catch(async (error: unknown) => {
      await removeAll(storage, keys)
      throw error
    })
    // Complete by this run, or by an earlier one that wrote the same keys.
    if (outcome === 'complete') return
    await removeAll(storage, keys)
    if (outcome === 'course_missing') throw ImportFailure.of('course_missing', 'The course to replace was deleted during the import')
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

/**
 * The import's signal: aborted when it has run past COURSE_IMPORT_TIMEOUT_SECONDS (since it was created),
 * or once it was cancelled (its row failed meanwhile, by whichever instance answered the cancel). Abort
 * destroys the streams in flight: the work stops, not only the status.
 */
function watchImport(db: Db, row: RunningImport, timeoutSeconds: number) {
  const controller = new AbortController()
  const timedOut = ImportFailure.of('import_timeout', `The import ran longer than ${timeoutSeconds} seconds`)
  const timer = setTimeout(() => controller.abort(timedOut), Math.max(0, (timeoutSeconds - row.running_seconds) * 1000))
  if (row.running_seconds >= timeoutSeconds) controller.abort(timedOut)
  const cancelled = ImportFailure.of('cancelled', 'The import was cancelled')
  const check = setInterval(() => {
    importStatus(db, row).then(
      (status) => status === 'failed' && controller.abort(cancelled),
      // The database unreachable: the run fails on its own next statement.
      () => {},
    )
  }, CANCEL_CHECK_MS)
  return {
    signal: controller.signal,
    stop: () => {
      clearTimeout(timer)
      clearInterval(check)
    },
  }
}

/**
 * Runs one import to its end. A package that breaks a rule, an entry that cannot be read, a cancel or
 * the timeout fail it at once. Anything else is an outage (storage or database unreachable): the run
 * is counted, and after MAX_RETRIES reruns the import fails with `import_unavailable`. True when it
 * should run again.
 */
async function settle(deps: ImportDeps, row: RunningImport): Promise<boolean> {
  const watch = watchImport(deps.db, row, deps.config.courseImports.timeoutSeconds)
  try {
    await runImport(deps, row, watch.signal)
    return false
  } catch (thrown) {
    const error = watch.signal.aborted ? watch.signal.reason : thrown
    if (error instanceof ImportFailure) {
      await fail(deps.db, row, error.errors, error.standard)
      return false
    }
    deps.log.error({ err: error, importId: row.id }, 'course import could not run')
    const runs = await countFailedRun(deps.db, row)
    if (runs === undefined) return false
    if (runs <= MAX_RETRIES) return true
    const message = `The import could not reach its storage or database in ${runs} runs`
    await fail(deps.db, row, [{ code: 'import_unavailable', message, path: '' }])
    return false
  } finally {
    watch.stop()
  }
}

/**
 * The import job: every running import, oldest first. The job fails (so the queue runs it again)
 * only when an import met an outage and has reruns left; a rerun writes the same keys and ends it once.
 */
export function importHandler(deps: ImportDeps) {
  return async () => {
    let again = false
    for (const row of await runningImports(deps.db)) {
      const rerun = await settle(deps, row).catch((error: unknown) => {
        deps.log.error({ err: error, importId: row.id }, 'course import could not be settled; it runs again')
        return true
      })
      again ||= rerun
    }
    if (again) throw new Error('A course import met an outage and runs again')
  }
}
