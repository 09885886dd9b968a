import yauzl, { type Entry } from 'yauzl'
import { CONTROL_CHARACTERS, type PackageErrors } from './package-model.js'

/** DECISIONS §13.2: archives with more entries are refused. */
export const MAX_ENTRIES = 20_000
const S_IFMT = 0o170000
const S_IFLNK = 0o120000
const MADE_BY_UNIX = 3
const STORED = 0
const DEFLATED = 8
const ENCRYPTED = 0x1
/** The longest name a storage key holds (S3 keys are at most 1,024 bytes). */
const MAX_NAME_BYTES = 1024
/** A file system's names are at most 255 bytes, and the local store adds a `.partial-<uuid>` suffix while it writes. */
const MAX_SEGMENT_BYTES = 200

const isLink = (entry: Entry) => entry.versionMadeBy >> 8 === MADE_BY_UNIX && ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK

/** Why the entry's name cannot be a stored file's, or null. */
function nameProblem(name: string): { code: string; message: string } | null {
  const unsafe = yauzl.validateFileName(name)
  if (unsafe) return { code: 'unsafe_path', message: `The entry's path leaves the package (${unsafe})` }
  // A NUL cannot be in a file name or a storage key; other control characters have no place in one either.
  if (name.replace(CONTROL_CHARACTERS, '') !== name)
    return { code: 'invalid_name', message: "The entry's name holds a NUL or another control character" }
  if (Buffer.byteLength(name) > MAX_NAME_BYTES)
    return { code: 'invalid_name', message: `The entry's name is longer than ${MAX_NAME_BYTES} bytes` }
  // A folder's entry ends in `/`; past that, every segment names a file or folder.
  const segments = name.replace(/\/$/, '').split('/')
  if (segments.some((segment) => segment === '' || segment === '.'))
    return { code: 'invalid_name', message: "The entry's name is empty or has an empty or `.` segment" }
  if (segments.some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES))
    return { code: 'invalid_name', message: `A file or folder name in the entry's path is longer than ${MAX_SEGMENT_BYTES} bytes` }
  return null
}

/**
 * Whether some name lies inside `path` taken as a folder: the first sorted name at or after `path/` starts
 * with it. Every prefix of every name kept in a set would cost the square of a name's length.
 */
function usedAsFolder(sorted: string[], path: string): boolean {
  const folder = `${path}/`
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (sorted[middle] < folder) low = middle + 1
    else high = middle
  }
  return low < sorted.length && sorted[low].startsWith(folder)
}

/**
 * The central directory's entries checked, nothing inflated: no path that leaves the package or holds a
 * control character, no links, no name twice, no file that is also a folder (`a` beside `a/b.html`), only
 * stored or deflated and unencrypted content. The files by path and the expanded size they declare.
 */
export function checkEntries(entries: Entry[], errors: PackageErrors): { files: Map<string, Entry>; expandedBytes: number } {
  const files = new Map<string, Entry>()
  const seen = new Set<string>()
  let expandedBytes = 0
  const named: { name: string; entry: Entry }[] = []
  for (const entry of entries) {
    const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileName as unknown as Buffer, entry.extraFields, false)
    expandedBytes += entry.uncompressedSize
    const problem = nameProblem(name)
    if (problem) {
      errors.add(problem.code, problem.message, name)
      continue
    }
    if (seen.has(name)) errors.add('duplicate_entry', 'The archive has another entry of this name', name)
    else if (isLink(entry)) errors.add('link', 'The entry is a symbolic link', name)
    else if (entry.generalPurposeBitFlag & ENCRYPTED) errors.add('entry_unsupported', 'The entry is encrypted', name)
    else if (![STORED, DEFLATED].includes(entry.compressionMethod)) {
      errors.add('entry_unsupported', `The entry's compression method (${entry.compressionMethod}) is neither stored nor deflated`, name)
    } else named.push({ name, entry })
    seen.add(name)
  }
  // Code-unit order, as `<` compares.
  const sorted = [...seen].sort()
  for (const { name, entry } of named) {
    if (name.endsWith('/')) continue
    if (usedAsFolder(sorted, name)) errors.add('path_conflict', 'The entry is a file, and other entries use its name as a folder', name)
    else files.set(name, entry)
  }
  return { files, expandedBytes }
}
