import { agentKey, type XapiAgent } from './agents.js'
import type { XapiPrincipal, XapiSession } from './auth.js'
import type { DocumentScope } from './documents.queries.js'
import { XapiError } from './errors.js'

type Json = Record<string, any>

/** Whether a statement is a session's own: by its actor, in its registration. */
const isOwn = (session: XapiSession, statement: Json) =>
  agentKey(statement?.actor as XapiAgent) === session.actorKey &&
  String(statement?.context?.registration ?? '').toLowerCase() === session.registration

/** A session credential writes only statements by its actor in its registration (cmi5 §9.3; its standard adds its own rules). */
export function assertSessionStatements(principal: XapiPrincipal, statements: readonly unknown[]): void {
  const { session } = principal
  if (!session) return
  if (!(statements as Json[]).every((statement) => isOwn(session, statement)))
    throw new XapiError(403, "A session's credential writes only statements by its actor in its registration")
}

/** A session credential reads a statement by id only when it is its own (DECISIONS §13.7). */
export function assertSessionReads(principal: XapiPrincipal, statement: Json): void {
  const { session } = principal
  if (session && !isOwn(session, statement))
    throw new XapiError(403, "A session's credential reads only statements by its actor in its registration")
}

/**
 * A session credential reaches only the state of its actor, activity and registration (never writing
 * the LMS's own states, cmi5's LMS.LaunchData, nor deleting every state at once), and reads only its
 * actor's agent profile (cmi5's `cmi5LearnerPreferences`, §11).
 */
export function assertSessionDocument(principal: XapiPrincipal, scope: DocumentScope, access: { id: string | null; write: boolean }): void {
  const { session } = principal
  if (!session) return
  const own =
    scope.kind === 'agent_profile'
      ? scope.agentKey === session.actorKey && !access.write
      : scope.kind === 'state' &&
        scope.activityId === session.activityId &&
        scope.agentKey === session.actorKey &&
        scope.registration === session.registration
  if (!own) throw new XapiError(403, "A session's credential reaches only the state of its actor, activity and registration")
  if (access.write && (access.id === null || session.lmsStates.includes(access.id)))
    throw new XapiError(403, `The LMS writes ${session.lmsStates.join(', ')}; an AU reads it`)
}
