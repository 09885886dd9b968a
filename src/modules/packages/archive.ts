import type { Readable } from 'node:stream'
import yauzl, { type Entry, type ZipFile } from 'yauzl'
import { PackageErrors } from './package-model.js'

/** DECISIONS §13.2: archives with more entries, or expanding past 4 × COURSE_PACKAGE_MAX_BYTES, are refused. */
export const MAX_ENTRIES = 20_000
export const EXPANSION_FACTOR = 4
// The manifests are read into memory to be parsed; far larger than any real one (a 1,000-AU cmi5.xml is ~1 MiB).
const MAX_MANIFEST_BYTES = 32 * 1024 * 1024
const S_IFMT = 0o170000
const S_IFLNK = 0o120000
const MADE_BY_UNIX = 3

export interface PackageArchive {
  /** The file entries (folders left out), by their path inside the package. */
  files: Map<string, Entry>
  /** The entry's content as a stream; yauzl checks its size against the central directory as it inflates. */
  open(path: string): Promise<Readable>
  /** A manifest's text, or null when it is too large to be one. */
  readText(path: string): Promise<string | null>
  close(): void
}

const isLink = (entry: Entry) => entry.versionMadeBy >> 8 === MADE_BY_UNIX && ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK

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

/**
 * Reads the zip's central directory (nothing is inflated or written) and checks it: no entry whose
 * path leaves the package, no links, at most MAX_ENTRIES entries, and at most `maxExpandedBytes` in
 * all once inflated. zip32 and zip64 alike (yauzl reads both).
 */
export async function openArchive(
  file: string,
  maxExpandedBytes: number,
): Promise<{ archive: PackageArchive | null; errors: PackageErrors }> {
  const errors = new PackageErrors()
  let zip: ZipFile
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true })
  } catch (error) {
    errors.add('not_a_zip', `The package is not a readable zip archive: ${(error as Error).message}`, '')
    return { archive: null, errors }
  }
  if (zip.entryCount > MAX_ENTRIES) {
    errors.add('too_many_entries', `The archive has ${zip.entryCount} entries; at most ${MAX_ENTRIES} are accepted`, '')
    zip.close()
    return { archive: null, errors }
  }
  const files = new Map<string, Entry>()
  let expanded = 0
  for (const entry of await readEntries(zip)) {
    const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileName as unknown as Buffer, entry.extraFields, false)
    const unsafe = yauzl.validateFileName(name)
    if (unsafe) errors.add('unsafe_path', `The entry's path leaves the package (${unsafe})`, name)
    else if (isLink(entry)) errors.add('link', 'The entry is a symbolic link', name)
    else if (!name.endsWith('/')) files.set(name, entry)
    expanded += entry.uncompressedSize
  }
  if (expanded > maxExpandedBytes) {
    errors.add('expansion_too_large', `The archive expands to ${expanded} bytes; at most ${maxExpandedBytes} are accepted`, '')
  }
  if (errors.list.length) {
    zip.close()
    return { archive: null, errors }
  }
  const open = (path: string) => zip.openReadStreamPromise(files.get(path)!)
  const archive: PackageArchive = {
    files,
    open,
    async readText(path) {
      if (files.get(path)!.uncompressedSize > MAX_MANIFEST_BYTES) return null
      const chunks: Buffer[] = []
      for await (const chunk of await open(path)) chunks.push(chunk as Buffer)
      return Buffer.concat(chunks).toString('utf8')
    },
    close: () => zip.close(),
  }
  return { archive, errors }
}
