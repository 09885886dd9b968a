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
}

/** A cmi5 block: its id and the AUs it holds at any depth, for `satisfied` per block. */
export interface PackageBlock {
  id: string
  auIndexes: number[]
}

/** What a valid manifest describes. */
export interface ParsedPackage {
  standard: CourseStandard
  title: string
  description: string | null
  publisherId: string | null
  aus: PackageAu[]
  blocks: PackageBlock[]
}

/** The files of the package, by their path inside it; null for a course structure imported alone. */
export type PackageFiles = ReadonlySet<string> | null

/** C0 controls and DEL: every code unit outside the printable ASCII range and U+0080 onwards. */
export const CONTROL_CHARACTERS = /[^\x20-\x7e\u0080-\uffff]/g

// An entry's name may hold NUL or other control characters, which a jsonb string cannot (NUL) or should not hold.
const printable = (text: string) => text.replace(CONTROL_CHARACTERS, '\ufffd')

/** Every broken rule of one package, each once with where it is. */
export class PackageErrors {
  readonly list: ImportError[] = []
  add(code: string, message: string, path: string): void {
    this.list.push({ code, message: printable(message), path: printable(path) })
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
