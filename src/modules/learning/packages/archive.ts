import type { Readable } from 'node:stream'
import { addAbortSignal } from 'node:stream'
import yauzl, { type Entry, type ZipFile } from 'yauzl'
import type { ImportError } from '../../../db/schema.js'
import { checkEntries, MAX_ENTRIES } from './archive-entries.js'
import { ImportFailure, PackageErrors } from './package-model.js'
import { MAX_MANIFEST_BYTES } from './xml.js'

export interface PackageArchive {
  /** The file entries (folders left out), by their path inside the package. */
  files: Map<string, Entry>
  /**
   * Runs `consume` on the entry's content. A failure of the entry itself (corrupt data, a size that
   * lies) becomes an ImportFailure naming it; a failure of where `consume` writes stays what it was.
   */
  readEntry<T>(path: string, signal: AbortSignal, consume: (content: Readable) => Promise<T>): Promise<T>
  /** A manifest's text, or null when it is too large to be one. */
  readText(path: string, signal: AbortSignal): Promise<string | null>
  close(): void
}

/** The one place an entry's read failure becomes an import error, named by the entry's path. */
export function entryError(path: string, error: unknown): ImportError {
  const { message, code } = error as NodeJS.ErrnoException
  const errors = new PackageErrors()
  if (/bytes in the stream/.test(message)) {
    errors.add('entry_size_mismatch', `The entry does not inflate to the size its header declares: ${message}`, path)
  } else if (code?.startsWith('Z_')) {
    errors.add('entry_corrupt', `The entry's compressed data is corrupt: ${message}`, path)
  } else {
    errors.add('entry_unreadable', `The entry cannot be read: ${message}`, path)
  }
  return errors.list[0]
}

async function readEntries(zip: ZipFile): Promise<Entry[]> {
  const entries: Entry[] = []
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      entries.push(entry)
      zip.readEntry()
    })
    zip.once('end', () => resolve(entries))
    zip.once('error', reject)
    zip.readEntry()
  })
}

function entryReader(zip: ZipFile, files: Map<string, Entry>): PackageArchive['readEntry'] {
  return async (path, signal, consume) => {
    signal.throwIfAborted()
    let content: Readable
    try {
      content = await zip.openReadStreamPromise(files.get(path)!)
    } catch (error) {
      throw new ImportFailure([entryError(path, error)])
    }
    let failure: unknown = null
    // Listened to before anything awaits: yauzl forwards an inflate error with a bare emit, which without a
    // listener ends the process. Destroying the stream stops the inflating and lets a later consumer see it.
    content.on('error', (error) => {
      failure ??= error
      content.destroy(error)
    })
    addAbortSignal(signal, content)
    try {
      return await consume(content)
    } catch (error) {
      if (signal.aborted) throw signal.reason
      throw failure ? new ImportFailure([entryError(path, failure)]) : error
    } finally {
      content.destroy()
    }
  }
}

async function collect(content: Readable): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of content) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export interface ArchiveLimits {
  /** At most this many bytes once inflated, in all (from the central directory). */
  maxExpandedBytes: number
  /** At most this many times the archive's own size once inflated. */
  maxExpansionRatio: number
}

/**
 * Reads the zip's central directory (nothing is inflated or written) and checks it (archive-entries.ts).
 * An archive that cannot be read is a failed import, never an outage. zip32 and zip64 alike.
 * Names are decoded here (decodeStrings false), so that an unsafe one is an error naming it rather than
 * the end of reading the directory.
 */
export async function openArchive(file: string, archiveBytes: number, limits: ArchiveLimits): Promise<PackageArchive> {
  let zip: ZipFile
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true })
  } catch (error) {
    throw ImportFailure.of('not_a_zip', `The package is not a readable zip archive: ${(error as Error).message}`)
  }
  try {
    const errors = new PackageErrors()
    const files = zip.entryCount > MAX_ENTRIES ? null : await readEntries(zip).then((entries) => checkEntries(entries, errors))
    if (!files) errors.add('too_many_entries', `The archive has ${zip.entryCount} entries; at most ${MAX_ENTRIES} are accepted`, '')
    else checkExpansion(files.expandedBytes, archiveBytes, limits, errors)
    if (errors.list.length) throw new ImportFailure(errors.list)
    const readEntry = entryReader(zip, files!.files)
    return {
      files: files!.files,
      readEntry,
      async readText(path, signal) {
        if (files!.files.get(path)!.uncompressedSize > MAX_MANIFEST_BYTES) return null
        return readEntry(path, signal, collect)
      },
      close: () => zip.close(),
    }
  } catch (error) {
    zip.close()
    if (error instanceof ImportFailure) throw error
    throw ImportFailure.of('not_a_zip', `The archive's central directory cannot be read: ${(error as Error).message}`)
  }
}

function checkExpansion(expanded: number, archiveBytes: number, limits: ArchiveLimits, errors: PackageErrors): void {
  if (expanded > limits.maxExpandedBytes) {
    errors.add('expansion_too_large', `The archive expands to ${expanded} bytes; at most ${limits.maxExpandedBytes} are accepted`, '')
  }
  if (expanded > limits.maxExpansionRatio * archiveBytes) {
    errors.add(
      'expansion_ratio_too_large',
      `The archive's ${archiveBytes} bytes expand to ${expanded}, more than ${limits.maxExpansionRatio} times as many`,
      '',
    )
  }
}
