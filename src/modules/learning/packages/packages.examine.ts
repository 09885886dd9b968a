import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { addAbortSignal, type Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Config } from '../../../config.js'
import type { Storage } from '../../../lib/storage.js'
import type { UploadRow } from '../../platform/uploads/uploads.queries.js'
import { type ArchiveLimits, openArchive, type PackageArchive } from './archive.js'
import { ImportFailure, type PackageReader, type ParsedPackage } from './package-model.js'
import { MAX_MANIFEST_BYTES } from './xml.js'

/** DECISIONS §13.2: an archive may expand to 4 × COURSE_PACKAGE_MAX_BYTES at most. */
const EXPANSION_FACTOR = 4
/** DECISIONS §13.7: and to 100 × its own size at most. */
const MAX_EXPANSION_RATIO = 100

/** Both rules on the expanded size hold: the smaller limit decides. */
export const archiveLimits = (config: Config): ArchiveLimits => ({
  maxExpandedBytes: Math.min(config.courseImports.maxExpandedBytes, EXPANSION_FACTOR * config.coursePackageMaxBytes),
  maxExpansionRatio: MAX_EXPANSION_RATIO,
})

/** A valid package: what its manifest describes, and its archive still open for its files to be stored (none for a cmi5.xml alone). */
export interface Examined {
  parsed: ParsedPackage
  archive: PackageArchive | null
}

async function readWhole(stream: Readable, signal: AbortSignal): Promise<string | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of addAbortSignal(signal, stream)) {
    size += chunk.length
    if (size > MAX_MANIFEST_BYTES) return null
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

const tooLarge = (path: string) => ImportFailure.of('manifest_too_large', `The manifest is larger than ${MAX_MANIFEST_BYTES} bytes`, path)

/**
 * Detects the standard by its manifest (the readers in the order the standards are listed) and checks
 * every rule; a package that breaks one is an ImportFailure. The zip is spooled to `work` (yauzl reads
 * the central directory at its end); nothing is extracted.
 */
export async function examine(
  { storage, config, readers }: { storage: Storage; config: Config; readers: readonly PackageReader[] },
  upload: UploadRow,
  work: string,
  signal: AbortSignal,
): Promise<Examined> {
  if (upload.mime === 'text/xml') {
    const reader = readers.find((r) => r.alone)
    if (!reader) throw ImportFailure.of('no_manifest', 'No standard imports a manifest alone')
    const text = await readWhole(storage.read(upload.storage_key), signal)
    if (text === null) throw tooLarge(reader.manifest)
    return { parsed: await readWith(reader, text, null), archive: null }
  }
  const file = join(work, 'package.zip')
  await pipeline(storage.read(upload.storage_key), createWriteStream(file), { signal })
  const archive = await openArchive(file, (await stat(file)).size, archiveLimits(config))
  try {
    return { parsed: await readManifest(readers, archive, signal), archive }
  } catch (error) {
    archive.close()
    throw error
  }
}

async function readWith(reader: PackageReader, text: string, files: ReadonlySet<string> | null): Promise<ParsedPackage> {
  const read = await reader.read(text, files)
  if (!read.parsed) throw new ImportFailure(read.errors.list, read.standard ?? null)
  return read.parsed
}

async function readManifest(readers: readonly PackageReader[], archive: PackageArchive, signal: AbortSignal): Promise<ParsedPackage> {
  const files = new Set(archive.files.keys())
  const reader = readers.find((r) => files.has(r.manifest))
  if (!reader) throw ImportFailure.of('no_manifest', `Neither ${readers.map((r) => r.manifest).join(' nor ')} is at the package's root`)
  const text = await archive.readText(reader.manifest, signal)
  if (text === null) throw tooLarge(reader.manifest)
  return readWith(reader, text, files)
}

/** Removes what an import wrote; a store that cannot be reached keeps them (a rerun writes the same keys). */
export async function removeAll(storage: Storage, keys: string[]): Promise<void> {
  await Promise.allSettled(keys.map((key) => storage.remove(key)))
}

/** A file of a package version as stored: its key, its path in the package, its size and SHA-256 (DECISIONS §16). */
export interface StoredFile {
  key: string
  path: string
  bytes: number
  sha256: string
}

/** The entry's content as it goes to storage, hashed on the way. */
function hashed(content: Readable) {
  const hash = createHash('sha256')
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      done(null, chunk)
    },
  })
  content.on('error', (error) => tap.destroy(error))
  return { stream: content.pipe(tap), sha256: () => hash.digest('hex') }
}

/** Streams every file of the archive into storage under `prefix`; on a failure, what was written is removed. */
export async function storeFiles(storage: Storage, archive: PackageArchive, prefix: string, signal: AbortSignal): Promise<StoredFile[]> {
  const written: StoredFile[] = []
  try {
    for (const [path, entry] of archive.files) {
      const sha256 = await archive.readEntry(path, signal, async (content) => {
        const tapped = hashed(content)
        await storage.write(prefix + path, tapped.stream, entry.uncompressedSize)
        return tapped.sha256()
      })
      written.push({ key: prefix + path, path, bytes: entry.uncompressedSize, sha256 })
    }
    return written
  } catch (error) {
    await removeAll(
      storage,
      written.map((file) => file.key),
    )
    throw error
  }
}
