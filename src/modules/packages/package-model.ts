import type { CourseStandard, ImportError } from '../../db/schema.js'
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

/** Every broken rule of one package, each once with where it is. */
export class PackageErrors {
  readonly list: ImportError[] = []
  add(code: string, message: string, path: string): void {
    this.list.push({ code, message, path })
  }
}
