import type { Config } from '../../../config.js'
import type { Db } from '../../../db/database.js'
import type { CourseStandard } from '../../../db/schema.js'
import type { Actor } from '../../../lib/access.js'
import type { EventSource } from '../../../lib/events.js'
import type { App, ModuleDeps, ModulePlugin } from '../../types.js'
import type { ContentGrant } from '../content/content.paths.js'
import type { PackageBlock, PackageReader } from '../packages/package-model.js'
import type { XapiAgent } from '../xapi/agents.js'
import type { AuRow, LockedRegistration, SessionRow } from './sessions.queries.js'

// What launch asks of a learning standard (cmi5, SCORM, …): the session steps (start, credential, end,
// abandon, expiry) are launch's, written once; each standard brings the four things below. The standards
// the service runs are listed in standards/index.ts and handed to launch by the wiring.

export interface LaunchDeps {
  db: Db
  config: Config
  standards: readonly LearningStandard[]
}

/** A registration locked for a change, with the package version it runs on and that version's standard. */
export interface Run {
  reg: LockedRegistration
  packageId: string
  aus: AuRow[]
  blocks: PackageBlock[]
  learner: XapiAgent
  standard: LearningStandard
}

export type Source = EventSource | Actor

/** What a launch has made before the standard prepares it: the session, its AU's LMS activity id and its one secret. */
export interface LaunchStep {
  sessionId: string
  activityId: string
  launchMode: string
  returnUrl?: string
  /** The session's credential (`credential: 'launch'`) or the one-time fetch's (`'fetch'`). */
  secret: string
  grant: ContentGrant
}

/** A session's end as the standard decides it: the session with its result, and the LMS's statements about it. */
export interface SessionOutcome {
  session: SessionRow
  statements: unknown[]
}

/** A session's credential at the LRS, for a standard whose content writes xAPI itself (cmi5). */
export interface LrsStep {
  /** State documents the LMS writes for the session and the content only reads. */
  lmsStates: readonly string[]
  /** The session's statements under the standard's rules, in the transaction `deps.db` is, `storeAll` storing them. */
  statements(
    deps: LaunchDeps,
    session: { id: string; organization_id: string; registration_id: string; actorKey: string },
    statements: readonly Record<string, any>[],
    storeAll: () => Promise<string[]>,
  ): Promise<string[]>
  /** Told of each State document the session reads. */
  stateRead(db: Db, sessionId: string, stateId: string): Promise<void>
}

/** A route plugin of a standard's own (its content's runtime calls), at its prefix under modules/index.ts's table. */
export interface StandardRoutes {
  plugin: ModulePlugin
  prefix: string
}

export interface LearningStandard {
  /** The `standard` values of the packages it runs (its editions). */
  ids: readonly CourseStandard[]
  /** Read a package: its manifest's name and reader. */
  package: PackageReader
  /** Prepare a launch. */
  launch: {
    /** Whether the session's credential is given at launch (a player holds it) or made by a one-time fetch (cmi5 §8.2). */
    credential: 'launch' | 'fetch'
    /** Anything the content needs before it opens, then the URL to open. */
    prepare(trx: Db, deps: LaunchDeps, run: Run, au: AuRow, step: LaunchStep): Promise<string>
  }
  /** Take a runtime step: the routes the content calls, and the LRS step when the content writes xAPI itself. */
  runtime: {
    routes(standards: readonly LearningStandard[]): StandardRoutes[]
    lrs?: LrsStep
  }
  /** Decide an outcome. */
  outcome: {
    /** A session ends (`abandoned`: by a new launch, an admin or the expiry; `terminated`: its own step decided it). */
    sessionEnds(
      trx: Db,
      deps: LaunchDeps,
      source: Source,
      run: Run,
      session: SessionRow,
      end: { endedBy: 'terminated' | 'abandoned'; seconds: number },
    ): Promise<SessionOutcome>
    /** The LMS's statements when blocks or the course become satisfied. */
    satisfied(config: Config, run: Run, sessionId: string, newly: { blocks: number[]; course: boolean }): unknown[]
    /** The LMS's statements when an admin waives an AU. */
    waived(config: Config, run: Run, sessionId: string, waiver: { auIndex: number; reason: string }): unknown[]
  }
}

/** Route plugins that reach the standards (launch's, a standard's runtime): the wiring gives them the list. */
export type StandardsDeps = ModuleDeps & { standards: readonly LearningStandard[] }
export type StandardsPlugin = (app: App, deps: StandardsDeps) => Promise<void> | void

export const withStandards =
  (plugin: StandardsPlugin, standards: readonly LearningStandard[]): ModulePlugin =>
  (app, deps) =>
    plugin(app, { ...deps, standards })

/** The standard of a package version's `standard`. */
export function standardOf(standards: readonly LearningStandard[], id: CourseStandard | null): LearningStandard {
  const found = standards.find((standard) => id !== null && standard.ids.includes(id))
  if (!found) throw new Error(`No learning standard runs "${id}" packages`)
  return found
}
