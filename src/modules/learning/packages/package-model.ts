import type { CourseStandard, ImportError } from '../../../db/schema.js'
import type { MoveOn } from './packages.schemas.js'

/** One launchable unit in launch order: a cmi5 AU or a SCORM SCO. */
export interface PackageAu {
  publisherId: string
  title: string
  url: string
  moveOn: MoveOn
  masteryScore: number | null
  launchMethod: 'AnyWindow' | 'OwnWindow'
  launchParameters: string | null
  entitlementKey: string | null
  activityType: string | null
  /** SCORM: the item launches an asset (no API calls) rather than a SCO. */
  scormAsset?: boolean
  /** SCORM 2004: the item's objective ids, primary first. */
  objectiveIds?: string[]
}

/** A cmi5 block: its id and the AUs it holds at any depth, for `satisfied` per block. */
export interface PackageBlock {
  id: string
  auIndexes: number[]
}

/** An activity of a SCORM 2004 activity tree as scorm-again's sequencing reads it (its activity settings). */
export interface ActivityNode extends Record<string, unknown> {
  id: string
  title: string
  children?: ActivityNode[]
}

/** What a valid manifest describes. */
export interface ParsedPackage {
  standard: CourseStandard
  title: string
  description: string | null
  publisherId: string | null
  aus: PackageAu[]
  blocks: PackageBlock[]
  /** SCORM 2004: the organization's activity tree with its sequencing. */
  activityTree?: ActivityNode
}

/** The files of the package, by their path inside it; null for a course structure imported alone. */
export type PackageFiles = ReadonlySet<string> | null

/** What a manifest's reader finds: the package, or every rule it breaks, and the standard once known. */
export interface ReadManifest {
  parsed: ParsedPackage | null
  errors: PackageErrors
  standard?: CourseStandard
}

/** How a standard reads its packages: the manifest at a package's root that names the standard. */
export interface PackageReader {
  manifest: string
  /** Whether the manifest may be imported alone (an XML upload, every URL absolute). */
  alone: boolean
  read(text: string, files: PackageFiles): Promise<ReadManifest>
}

/** C0 controls and DEL: every code unit outside the printable ASCII range and U+0080 onwards. */
export const CONTROL_CHARACTERS = /[^\x20-\x7e\u0080-\uffff]/g

// An entry's name may hold NUL or other control characters, which a jsonb string cannot (NUL) or should not hold.
const printable = (text: string) => text.replace(CONTROL_CHARACTERS, '\ufffd')

/** An import keeps this many errors; one more entry counts the rest (a package can break a rule 20,000 times). */
export const MAX_ERRORS = 100
/** An error's path is cut to this many characters: an entry's name may be 64 KiB. */
const MAX_PATH_CHARACTERS = 300

const shortened = (path: string) => (path.length > MAX_PATH_CHARACTERS ? `${path.slice(0, MAX_PATH_CHARACTERS - 1)}…` : path)

/** Every broken rule of one package, each once with where it is: the first MAX_ERRORS, then how many more. */
export class PackageErrors {
  private readonly kept: ImportError[] = []
  private more = 0
  add(code: string, message: string, path: string): void {
    if (this.kept.length < MAX_ERRORS) this.kept.push({ code, message: printable(message), path: printable(shortened(path)) })
    else this.more++
  }
  get list(): ImportError[] {
    return this.more ? [...this.kept, { code: 'too_many_errors', message: `and ${this.more} more`, path: '' }] : this.kept
  }
}

/**
 * An import that fails for good: the package breaks a rule, an entry cannot be read, the import was
 * cancelled or ran out of time. It is never retried; anything else thrown is taken for an outage.
 */
export class ImportFailure extends Error {
  constructor(
    readonly errors: ImportError[],
    /** The standard detected before the failure, if any. */
    readonly standard: CourseStandard | null = null,
  ) {
    super(errors.map((error) => error.message).join('; '))
  }

  static of(code: string, message: string, path = ''): ImportFailure {
    const errors = new PackageErrors()
    errors.add(code, message, path)
    return new ImportFailure(errors.list)
  }
}
