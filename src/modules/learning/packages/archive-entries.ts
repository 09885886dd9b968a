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

const isLink = (entry: Entry) => entry.versionMadeBy >> 8 === MADE_BY_UNIX && ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK

/** Why the entry's name cannot be a stored file's, or null. */
function nameProblem(name: string): { code: string; message: string } | null {
  const unsafe = yauzl.validateFileName(name)
  if (unsafe) return { code: 'unsafe_path', message: `The entry's path leaves the package (${unsafe})` }
  // A NUL cannot be in a file name or a storage key; other control characters have no place in one either.
  if (name.replace(CONTROL_CHARACTERS, '') !== name)
    return { code: 'invalid_name', message: "The entry's name holds a NUL or another control character" }
  return null
}

/** The folders a path lies in: `a/b/c.html` → `a`, `a/b`. */
const foldersOf = (path: string) => {
  const parts = path.replace(/\/$/, '').split('/')
  return parts.slice(0, -1).map((_, n) => parts.slice(0, n + 1).join('/'))
}

/**
 * The central directory's entries checked, nothing inflated: no path that leaves the package or holds a
 * control character, no links, no name twice, no file that is also a folder (`a` beside `a/b.html`), only
 * stored or deflated and unencrypted content. The files by path and the expanded size they declare.
 */
export function checkEntries(entries: Entry[], errors: PackageErrors): { files: Map<string, Entry>; expandedBytes: number } {
  const files = new Map<string, Entry>()
  const seen = new Set<string>()
  const folders = new Set<string>()
  let expandedBytes = 0
  const named: { name: string; entry: Entry }[] = []
  for (const entry of entries) {
    const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileName as unknown as Buffer, entry.extraFields, false)
    expandedBytes += entry.uncompressedSize
    const problem = nameProblem(name)
    if (problem) errors.add(problem.code, problem.message, name)
    else if (seen.has(name)) errors.add('duplicate_entry', 'The archive has another entry of this name', name)
    else if (isLink(entry)) errors.add('link', 'The entry is a symbolic link', name)
    else if (entry.generalPurposeBitFlag & ENCRYPTED) errors.add('entry_unsupported', 'The entry is encrypted', name)
    else if (![STORED, DEFLATED].includes(entry.compressionMethod)) {
      errors.add('entry_unsupported', `The entry's compression method (${entry.compressionMethod}) is neither stored nor deflated`, name)
    } else named.push({ name, entry })
    seen.add(name)
    for (const folder of foldersOf(name)) folders.add(folder)
    if (name.endsWith('/')) folders.add(name.slice(0, -1))
  }
  for (const { name, entry } of named) {
    if (name.endsWith('/')) continue
    if (folders.has(name)) errors.add('path_conflict', 'The entry is a file, and other entries use its name as a folder', name)
    else files.set(name, entry)
  }
  return { files, expandedBytes }
}
