import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Config } from '../../../config.js'

/** What a launch session may read from the content origin, and until when. */
export interface ContentGrant {
  orgId: string
  packageId: string
  sessionId: string
  expiresAt: Date
}

export const CONTENT_PREFIX = '/content'
export const PLAYER_PREFIX = '/player'

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url')

/**
 * The session paths of the content origin (DECISIONS §13.3): `/content/<token>/<file>`, where the
 * token names the organization, package version and session with its expiry and an HMAC over them
 * (a key of its own, derived from the service secret). Unforgeable and unguessable without a launch;
 * checked without a database read, so serving a file costs one storage read. A package's relative
 * URLs resolve inside the same session path.
 */
export function contentPaths(config: Pick<Config, 'jwtSecret' | 'contentOrigin'>) {
  const key = createHmac('sha256', config.jwtSecret).update('seaworthy:content-session').digest()
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest()
  const token = (grant: ContentGrant) => {
    const payload = base64url(JSON.stringify([grant.orgId, grant.packageId, grant.sessionId, Math.floor(grant.expiresAt.getTime() / 1000)]))
    return `${payload}.${base64url(sign(payload))}`
  }

  return {
    /** The absolute URL of a package-relative `url` (its query kept) inside the session's path. */
    url(grant: ContentGrant, url: string): string {
      return `${config.contentOrigin}${CONTENT_PREFIX}/${token(grant)}/${url}`
    },

    /**
     * The SCORM player page of a session (DECISIONS §13.4), on the content origin beside the package so
     * the SCO finds its runtime in the frame's parent: the SCO's package-relative URL in the query; the
     * session's credential in the fragment, which the browser never sends to a server.
     */
    player(
      grant: ContentGrant,
      scoUrl: string,
      session: { sessionId: string; secret: string; standard: string; endpoint: string },
    ): string {
      const fragment = new URLSearchParams({
        session: session.sessionId,
        secret: session.secret,
        standard: session.standard,
        endpoint: session.endpoint,
      })
      return `${config.contentOrigin}${PLAYER_PREFIX}/${token(grant)}?sco=${encodeURIComponent(scoUrl)}#${fragment}`
    },

    /** The grant a token carries; null when it is not one this service signed, `expired` after its time. */
    read(token: string): ContentGrant | 'expired' | null {
      const [payload, signature, extra] = token.split('.')
      if (!payload || !signature || extra !== undefined) return null
      const given = Buffer.from(signature, 'base64url')
      const expected = sign(payload)
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
      const [orgId, packageId, sessionId, expires] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
      if (expires * 1000 <= Date.now()) return 'expired'
      return { orgId, packageId, sessionId, expiresAt: new Date(expires * 1000) }
    },
  }
}

export type ContentPaths = ReturnType<typeof contentPaths>
