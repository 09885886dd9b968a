import { type Api, json, send } from './http.js'
import type { World } from './world.js'

// Launches as a learner's browser makes them: the launch answer's URL, and for cmi5 the fetch URL spent
// for the session's LRS credential; for SCORM the credential in the player URL's fragment.

export const XAPI = '/api/v1/learn/xapi'
export const XAPI_VERSION = { 'x-experience-api-version': '1.0.3' }
export const SESSION_ID_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid'

export interface Cmi5Session {
  sessionId: string
  /** `Basic <auth-token>`: the session's own LRS credential. */
  auth: string
  actor: Record<string, unknown>
  registration: string
  activityId: string
}

async function launch(learner: Api, registrationId: string): Promise<{ sessionId: string; url: URL }> {
  const launched = await learner.expect(201, 'POST', `/api/v1/learn/registrations/${registrationId}/launch`, {})
  return { sessionId: launched.sessionId, url: new URL(launched.url) }
}

export async function launchCmi5(learner: Api, registrationId: string): Promise<Cmi5Session> {
  const { sessionId, url } = await launch(learner, registrationId)
  const params = url.searchParams
  const fetched = await send(params.get('fetch') ?? '', { method: 'POST' })
  const token = json(fetched)?.['auth-token']
  if (typeof token !== 'string') throw new Error(`the fetch URL answered ${fetched.status} ${fetched.text.slice(0, 200)}`)
  return {
    sessionId,
    auth: `Basic ${token}`,
    actor: JSON.parse(params.get('actor') ?? '{}'),
    registration: params.get('registration') ?? '',
    activityId: params.get('activityId') ?? '',
  }
}

export interface ScormSession {
  sessionId: string
  /** `Basic session.<id>:<secret>`, as the player sends it. */
  auth: string
  /** The session's path on the content origin, ending in `/`: package files are below it. */
  contentBase: string
}

export async function launchScorm(world: World, learner: Api, registrationId: string): Promise<ScormSession> {
  const { url } = await launch(learner, registrationId)
  const fragment = new URLSearchParams(url.hash.slice(1))
  const session = fragment.get('session') ?? ''
  const token = url.pathname.split('/').at(-1)
  return {
    sessionId: session,
    auth: `Basic ${Buffer.from(`session.${session}:${fragment.get('secret')}`).toString('base64')}`,
    contentBase: `${world.service.contentUrl}/content/${token}/`,
  }
}

/** A statement by `actor` in `registration`, valid for any LRS credential that may write for them. */
export function statement(actor: Record<string, unknown>, registration: string, extra: Record<string, unknown> = {}) {
  return {
    id: crypto.randomUUID(),
    actor,
    verb: { id: 'http://adlnet.gov/expapi/verbs/experienced', display: { 'en-US': 'experienced' } },
    object: { objectType: 'Activity', id: 'https://hostile.example.test/activities/page' },
    context: { registration },
    ...extra,
  }
}
