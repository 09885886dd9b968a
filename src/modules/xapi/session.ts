import { agentKey, type XapiAgent } from './agents.js'
import type { XapiPrincipal } from './auth.js'
import { XapiError } from './errors.js'

type Json = Record<string, any>

/** A session credential writes only statements by its actor in its registration (cmi5 §9.3; the launch module adds its own rules). */
export function assertSessionStatements(principal: XapiPrincipal, statements: readonly unknown[]): void {
  const { session } = principal
  if (!session) return
  for (const statement of statements as Json[]) {
    const sameActor = agentKey(statement?.actor as XapiAgent) === session.actorKey
    const sameRegistration = String(statement?.context?.registration ?? '').toLowerCase() === session.registration
    if (!sameActor || !sameRegistration)
      throw new XapiError(403, "A session's credential writes only statements by its actor in its registration")
  }
}

/** A session credential reads and writes only the state of its actor, activity and registration. */
export function assertSessionDocument(
  principal: XapiPrincipal,
  scope: { activityId: string; agentKey: string; registration: string },
): void {
  const { session } = principal
  if (!session) return
  if (scope.activityId !== session.activityId || scope.agentKey !== session.actorKey || scope.registration !== session.registration) {
    throw new XapiError(403, "A session's credential reaches only the state of its actor, activity and registration")
  }
}
